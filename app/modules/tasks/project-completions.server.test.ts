import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { listProjectCompletions, type CompletionKey } from "./project-completions.server";

let database: Database;
const ROWS = 100_000;
const WALLET = getAddress("0x00000000000000000000000000000000000000ab");

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.insert(project).values([
    { id: "big", slug: "big", name: "Big" },
    { id: "small", slug: "small", name: "Small" },
  ]);
  await db.insert(campaign).values({ id: "c1", projectId: "small", slug: "c1", name: "C1", startsAt: new Date(0), endsAt: new Date(0) });
  const taskRow = (id: string, projectId: string, campaignId: string | null = null) =>
    ({ id, projectId, campaignId, title: id, type: "visit_link", xp: 1, verification: "none" }) as const;
  await db.insert(task).values([taskRow("t-big", "big"), taskRow("t-a", "small", "c1"), taskRow("t-b", "small")]);
  await db.execute(sql`insert into "user" (id, email, name) select 'u' || i, 'u' || i || '@example.com', 'U' || i from generate_series(0, 999) i`);
  await db.insert(walletAddress).values({ id: "w", userId: "u7", address: WALLET, chainId: 1 });
  // 100,000 completions in one statement; three at a time share a creation time (the key's tie-break is the id).
  await db.execute(sql`
    insert into completion (id, task_id, user_id, period, status, created_at)
    select 'c' || lpad(i::text, 6, '0'), 't-big', 'u' || (i % 1000), i::text, 'approved',
           timestamptz '2026-01-01' + (i / 3) * interval '1 millisecond' + (i % 3 = 1)::int * interval '1 microsecond'
    from generate_series(1, ${ROWS}) i`);
  await db.insert(completion).values([
    { id: "s1", taskId: "t-a", userId: "u7", period: "once", status: "approved", createdAt: new Date("2026-02-01T00:00:00Z") },
    { id: "s2", taskId: "t-a", userId: "u8", period: "once", status: "pending", createdAt: new Date("2026-02-02T00:00:00Z") },
    { id: "s3", taskId: "t-b", userId: "u7", period: "once", status: "rejected", createdAt: new Date("2026-02-03T00:00:00Z") },
  ]);
  // As autovacuum would after such an insert: the planner's figures for the new rows.
  await db.execute(sql`analyze completion`);
}, 60_000);
afterAll(() => database.close());

describe("a project's completions, by cursor", () => {
  it("pages through 100,000 rows 100 at a time: each once, none missing, in order, none of another project", async () => {
    const started = performance.now();
    const seen: string[] = [];
    let after: CompletionKey | null = null;
    do {
      const page: Awaited<ReturnType<typeof listProjectCompletions>> = await listProjectCompletions({ db: database.db, projectId: "big", after, limit: 100 });
      expect(page.rows.length).toBeLessThanOrEqual(100);
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after);
    const paging = performance.now() - started;
    const pages = Math.ceil(seen.length / 100);
    expect(new Set(seen).size).toBe(seen.length);
    // The rows' order: by creation time to the microsecond (i = 3k+1 comes a microsecond after its
    // two twins, which tie and go by id), then by id.
    const at = (i: number) => Math.floor(i / 3) * 1000 + (i % 3 === 1 ? 1 : 0);
    const order = Array.from({ length: ROWS }, (_, k) => k + 1).sort((a, b) => at(a) - at(b) || a - b);
    expect(seen).toEqual(order.map((i) => `c${String(i).padStart(6, "0")}`));
    console.info(`100,000 completions paged in ${pages} pages in ${Math.round(paging)} ms (checked in ${Math.round(performance.now() - started - paging)} ms)`);
  }, 120_000);

  it("filters by task, campaign, status, member, wallet (any case) and time", async () => {
    const ids = async (filter: Parameters<typeof listProjectCompletions>[0]["filter"]) =>
      (await listProjectCompletions({ db: database.db, projectId: "small", filter, limit: 10 })).rows.map((r) => r.id);
    expect(await ids({})).toEqual(["s1", "s2", "s3"]);
    expect(await ids({ taskId: "t-a" })).toEqual(["s1", "s2"]);
    expect(await ids({ taskId: "t-big" })).toEqual([]);
    expect(await ids({ campaignId: "c1" })).toEqual(["s1", "s2"]);
    expect(await ids({ status: "rejected" })).toEqual(["s3"]);
    expect(await ids({ userId: "u7" })).toEqual(["s1", "s3"]);
    expect(await ids({ wallet: WALLET.toLowerCase() })).toEqual(["s1", "s3"]);
    expect(await ids({ wallet: "0x00000000000000000000000000000000000000ac" })).toEqual([]);
    expect(await ids({ wallet: WALLET, userId: "u8" })).toEqual([]);
    expect(await ids({ since: new Date("2026-02-02T00:00:00Z") })).toEqual(["s2", "s3"]);
  });
});
