import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "#tests/setup/test-db";
import { user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import type { Mail, Mailer } from "~/modules/mail/mailer.server";
import { flashCookie, readFlash } from "~/lib/flash.server";
import { inviteByToken, revokeInvite } from "./invites.server";
import { projectSchema } from "./project.schema";
import { createProject, type Project } from "./projects.server";
import { resendAndMail, sendInvite } from "./send-invite.server";
import { claimNewProject, resendWaits } from "./send-limits.server";

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
const LIMITS = { INVITES_PER_PROJECT_PER_HOUR: 30, INVITES_PER_INVITER_PER_HOUR: 30, INVITE_RESEND_COOLDOWN_SECONDS: 600, PROJECTS_PER_MEMBER_PER_DAY: 10 };
/** Each test sends at its own time, an hour after the one before, so the limits of one do not reach the next. */
let clock = Date.parse("2026-03-01T00:00:00Z");
const outbox = (now = new Date(clock)) => ({
  db: database.db,
  mailer,
  logger: createLogger("silent"),
  appName: "Questline",
  appUrl: "https://quest.example",
  limits: LIMITS,
  now,
});
beforeEach(() => {
  clock += 3_600_000;
});
/** A sent invitation, or the test fails with the refusal. */
function delivered<T extends object>(result: T | { refused: string } | null): T {
  if (!result || "refused" in result) throw new Error(`refused: ${result && "refused" in result ? result.refused : "null"}`);
  return result;
}

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
    const result = delivered(
      await sendInvite(outbox(), { project, inviterName: "Olive", invitedBy: "owner", role: "admin", email: "ada@example.com", walletAddress: null }),
    );
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
    const wallet = delivered(
      await sendInvite(outbox(), {
        project,
        inviterName: null,
        invitedBy: "owner",
        role: "reviewer",
        email: null,
        walletAddress: "0x1111111111111111111111111111111111111111",
      }),
    );
    expect(wallet.mailed).toBeNull();
    expect(sent.length).toBe(before);

    failing = true;
    const failed = delivered(
      await sendInvite(outbox(), { project, inviterName: null, invitedBy: "owner", role: "reviewer", email: "bob@example.com", walletAddress: null }),
    );
    failing = false;
    expect(failed.mailed).toBe(false);
    expect(await inviteByToken({ db: database.db, token: tokenOf(failed.url) })).not.toBeNull();
  });

  it("resends with a new link (the old one stops working), but not a revoked invite", async () => {
    const first = delivered(
      await sendInvite(outbox(), { project, inviterName: null, invitedBy: "owner", role: "reviewer", email: "cy@example.com", walletAddress: null }),
    );
    const later = new Date(clock + 600_000);
    const again = delivered(await resendAndMail(outbox(later), { project, inviterName: null, inviteId: first.invite.id, resentBy: "owner" }));
    expect(again.mailed).toBe(true);
    expect(sent.at(-1)?.text).toContain(again.url);
    expect(await inviteByToken({ db: database.db, token: tokenOf(first.url) })).toBeNull();
    await revokeInvite({ db: database.db, projectId: project.id, inviteId: first.invite.id });
    expect(await resendAndMail(outbox(new Date(clock + 1_800_000)), { project, inviterName: null, inviteId: first.invite.id, resentBy: "owner" })).toBeNull();
  });
});

describe("sending limits", () => {
  const invite = (email: string, invitedBy = "owner", now?: Date) =>
    sendInvite(outbox(now), { project, inviterName: null, invitedBy, role: "reviewer", email, walletAddress: null });

  it("waits a cooldown between two sends of one invitation, and says how long", async () => {
    const first = delivered(await invite("dee@example.com"));
    const mails = sent.length;
    const tooSoon = await resendAndMail(outbox(new Date(clock + 60_000)), { project, inviterName: null, inviteId: first.invite.id, resentBy: "owner" });
    expect(tooSoon).toEqual({ refused: "This invitation was just sent. You can resend it in 9 minutes." });
    expect(sent.length).toBe(mails);
    expect(await resendWaits({ db: database.db, limits: LIMITS, inviteIds: [first.invite.id], now: clock + 60_000 })).toEqual(
      new Map([[first.invite.id, 540]]),
    );

    const resent = delivered(
      await resendAndMail(outbox(new Date(clock + 600_000)), { project, inviterName: null, inviteId: first.invite.id, resentBy: "owner" }),
    );
    expect(resent.mailed).toBe(true);
    expect(await resendAndMail(outbox(new Date(clock + 660_000)), { project, inviterName: null, inviteId: first.invite.id, resentBy: "owner" })).toMatchObject({
      refused: expect.stringContaining("You can resend it in"),
    });
    expect(sent.length).toBe(mails + 1);
  });

  it("refuses the invitations past the hourly limits, racing ones included, and opens again an hour later", async () => {
    const tries = await Promise.all(Array.from({ length: 40 }, (_, i) => invite(`flood-${i}@example.com`)));
    expect(tries.filter((t) => !("refused" in t))).toHaveLength(30);
    expect(tries.find((t) => "refused" in t)).toEqual({ refused: "You have sent 30 invitations in the last hour. Try again in 60 minutes." });
    // Another team member of the same project meets the project's limit.
    expect(await invite("other@example.com", "admin")).toEqual({ refused: "This project has sent 30 invitations in the last hour. Try again in 60 minutes." });
    expect(await invite("later@example.com", "owner", new Date(clock + 3_600_001))).not.toHaveProperty("refused");
  });

  it("limits the projects a member creates per day", async () => {
    const db = database.db;
    const limits = { ...LIMITS, PROJECTS_PER_MEMBER_PER_DAY: 2 };
    expect(await claimNewProject({ db, limits, userId: "maker", now: clock })).toEqual({ ok: true });
    expect(await claimNewProject({ db, limits, userId: "maker", now: clock + 1000 })).toEqual({ ok: true });
    expect(await claimNewProject({ db, limits, userId: "maker", now: clock + 3_600_000 })).toEqual({
      ok: false,
      code: "limited",
      message: "You have created 2 projects today. Try again in 23 hours.",
      retryAfterSeconds: 82_800,
    });
    expect(await claimNewProject({ db, limits, userId: "maker", now: clock + 86_400_001 })).toEqual({ ok: true });
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

  it("carry a description beside the message, each on one line", () => {
    const cookie = flashCookie(
      { message: "Deposit given to @ada\nsecond", description: "It is credited once confirmed." },
      { appUrl: "http://localhost:3000" },
    );
    expect(cookie).not.toContain("Secure");
    const request = new Request("http://localhost:3000/operator/deposits", { headers: { cookie: cookie.split(";")[0] ?? "" } });
    const { flash } = readFlash(request, { appUrl: "http://localhost:3000" });
    expect(flash).toEqual({ id: expect.any(String), message: "Deposit given to @ada second", description: "It is credited once confirmed." });
  });
});
