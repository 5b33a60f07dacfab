import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { socialAccount } from "#db/schema/social";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask } from "~/modules/tasks/completions.server";
import { listSubmissions, saveTask, submissionsCsv } from "~/modules/tasks/tasks.server";
import { WALLET_EMAIL_DOMAIN } from "~/modules/wallets/wallets.server";
import { emailShares, setEmailShare } from "./member-identity.server";

let database: Database;
const WALLET = "0x00000000000000000000000000000000000000a1";

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.insert(user).values([
    { id: "cid", email: "cid@example.com", name: "Cid" },
    { id: "dee", email: "dee@example.com", name: "Dee" },
    { id: "eve", email: `0xabc@${WALLET_EMAIL_DOMAIN}`, name: "" },
  ]);
  await db.insert(project).values([
    { id: "harvest", slug: "harvest", name: "Harvest" },
    { id: "other", slug: "other", name: "Other" },
  ]);
  await db.insert(walletAddress).values({ id: "w1", userId: "dee", address: WALLET, chainId: 31337 });
  await db.insert(account).values({ id: "a1", userId: "dee", providerId: "x", accountId: "x-dee" });
  await db.insert(socialAccount).values({ provider: "x", accountId: "x-dee", handle: "dee_on_x" });
  const saved = await saveTask({
    db,
    projectId: "harvest",
    input: {
      title: "Say hello",
      description: "",
      type: "submit_url",
      config: { prompt: "" },
      xp: 10,
      verification: "review",
      recurrence: "once",
      startsAt: null,
      endsAt: null,
      cap: null,
      campaignId: null,
      published: true,
    },
  });
  const taskId = saved.ok ? saved.task.id : "";
  for (const userId of ["cid", "dee", "eve"]) {
    await attemptTask({ db, taskId, userId, input: { kind: "url", url: `https://example.com/${userId}` } });
  }
});
afterAll(() => database.close());

const pending = (search?: string) => listSubmissions({ db: database.db, projectId: "harvest", status: "pending", search });

describe("what a project's team sees of its members", () => {
  it("is their name, wallets and social handles; no e-mail address, not even through the search, until the member shares it", async () => {
    const rows = (await pending()).rows;
    expect(rows.map((r) => r.member).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: "cid", name: "Cid", email: null, wallets: [], socials: [] },
      { id: "dee", name: "Dee", email: null, wallets: [WALLET], socials: [{ provider: "x", handle: "dee_on_x" }] },
      { id: "eve", name: "", email: null, wallets: [], socials: [] },
    ]);
    // A team cannot find out whether an address took part by searching for it.
    expect((await pending("cid@example")).rows).toEqual([]);
    const csv = await submissionsCsv({ db: database.db, projectId: "harvest", status: "pending" });
    expect(csv.split("\r\n")[0]).toBe("submitted_at,status,task,member,email,wallets,social_accounts,submission,reason,reviewed_at");
    expect(csv).not.toContain("@example.com");
    expect(csv).toContain(`,Dee,,${WALLET},x:dee_on_x,`);
  });

  it("shows the e-mail address to that project's team once the member shares it, and no longer once they stop", async () => {
    const { db } = database;
    expect(await setEmailShare({ db, userId: "cid", projectId: "harvest", shared: true })).toEqual({ ok: true, projectName: "Harvest" });
    expect((await pending("cid@example")).rows.map((r) => r.member)).toEqual([{ id: "cid", name: "Cid", email: "cid@example.com", wallets: [], socials: [] }]);
    expect(await submissionsCsv({ db, projectId: "harvest", status: "pending" })).toContain(",Cid,cid@example.com,");
    // Dee shared nothing: still hidden.
    expect(await submissionsCsv({ db, projectId: "harvest", status: "pending" })).not.toContain("dee@example.com");

    expect(await emailShares({ db, userId: "cid" })).toEqual({
      email: "cid@example.com",
      projects: [{ projectId: "harvest", name: "Harvest", slug: "harvest", shared: true }],
    });
    await setEmailShare({ db, userId: "cid", projectId: "harvest", shared: false });
    expect((await pending("cid@example")).rows).toEqual([]);
    expect((await emailShares({ db, userId: "cid" })).projects).toEqual([{ projectId: "harvest", name: "Harvest", slug: "harvest", shared: false }]);
  });

  it("refuses a share for a project that does not exist, or from a member with no e-mail address (signed in by wallet)", async () => {
    const { db } = database;
    expect(await setEmailShare({ db, userId: "cid", projectId: "gone", shared: true })).toMatchObject({ ok: false, code: "not_found" });
    expect(await setEmailShare({ db, userId: "eve", projectId: "harvest", shared: true })).toMatchObject({ ok: false, code: "conflict" });
    expect(await emailShares({ db, userId: "eve" })).toMatchObject({ email: null });
  });
});
