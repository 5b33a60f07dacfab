import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/setup/test-db";
import { user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import type { Mail, Mailer } from "~/modules/mail/mailer.server";
import { flashCookie, readFlash } from "./flash.server";
import { inviteByToken, revokeInvite } from "./invites.server";
import { projectSchema } from "./project.schema";
import { createProject, type Project } from "./projects.server";
import { resendAndMail, sendInvite } from "./send-invite.server";

let database: Database;
let project: Project;
const sent: Mail[] = [];
let failing = false;
const mailer: Mailer = {
  transport: "dev-inbox",
  send: async (mail) => {
    if (failing) throw new Error("SMTP down");
    sent.push(mail);
  },
};
const outbox = () => ({ db: database.db, mailer, logger: createLogger("silent"), appName: "Questline", appUrl: "https://quest.example" });

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values({ id: "owner", email: "owner@example.com", name: "Olive" });
  const input = projectSchema.parse({ name: "Acme", slug: "acme", description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" });
  const created = await createProject({ db: database.db, userId: "owner", input });
  if (!created.ok) throw new Error("no project");
  project = created.project;
});
afterAll(() => database.close());

const tokenOf = (url: string) => decodeURIComponent(url.split("/invites/")[1]!);

describe("sending invites", () => {
  it("mails an e-mail invite its link, which finds the invite", async () => {
    const result = await sendInvite(outbox(), { project, inviterName: "Olive", invitedBy: "owner", role: "admin", email: "ada@example.com", walletAddress: null });
    expect(result.mailed).toBe(true);
    const mail = sent.at(-1)!;
    expect(mail).toMatchObject({ to: "ada@example.com", subject: "Join Acme on Questline" });
    expect(mail.text).toContain("Olive invited you to join Acme on Questline as an admin.");
    expect(mail.text).toContain(result.url);
    expect(result.url.startsWith("https://quest.example/invites/")).toBe(true);
    expect((await inviteByToken({ db: database.db, token: tokenOf(result.url) }))?.invite.id).toBe(result.invite.id);
  });

  it("does not mail wallet invites, and reports a failed mail without losing the invite", async () => {
    const before = sent.length;
    const wallet = await sendInvite(outbox(), { project, inviterName: null, invitedBy: "owner", role: "reviewer", email: null, walletAddress: "0x1111111111111111111111111111111111111111" });
    expect(wallet.mailed).toBeNull();
    expect(sent.length).toBe(before);

    failing = true;
    const failed = await sendInvite(outbox(), { project, inviterName: null, invitedBy: "owner", role: "reviewer", email: "bob@example.com", walletAddress: null });
    failing = false;
    expect(failed.mailed).toBe(false);
    expect(await inviteByToken({ db: database.db, token: tokenOf(failed.url) })).not.toBeNull();
  });

  it("resends with a new link (the old one stops working), but not a revoked invite", async () => {
    const first = await sendInvite(outbox(), { project, inviterName: null, invitedBy: "owner", role: "reviewer", email: "cy@example.com", walletAddress: null });
    const again = await resendAndMail(outbox(), { project, inviterName: null, inviteId: first.invite.id });
    expect(again?.mailed).toBe(true);
    expect(sent.at(-1)?.text).toContain(again!.url);
    expect(await inviteByToken({ db: database.db, token: tokenOf(first.url) })).toBeNull();
    await revokeInvite({ db: database.db, projectId: project.id, inviteId: first.invite.id });
    expect(await resendAndMail(outbox(), { project, inviterName: null, inviteId: first.invite.id })).toBeNull();
  });
});

describe("flash messages", () => {
  it("carry a message across one redirect", () => {
    const cookie = flashCookie("Project saved", { appUrl: "https://quest.example" });
    expect(cookie).toContain("Secure");
    const request = new Request("https://quest.example/projects/acme", { headers: { cookie: `a=b; ${cookie.split(";")[0]}` } });
    const { flash, headers } = readFlash(request, { appUrl: "https://quest.example" });
    expect(flash?.message).toBe("Project saved");
    expect(new Headers(headers).get("set-cookie")).toMatch(/^flash=; Max-Age=0/);
    expect(readFlash(new Request("https://quest.example/"), { appUrl: "https://quest.example" }).flash).toBeNull();
  });
});
