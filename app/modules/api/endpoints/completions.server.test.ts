import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaign, completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Services } from "~/services/services.server";
import { apiTestProject, callApi } from "~/modules/api/api-test-kit.server";
import { listProjectCompletions, type CompletionKey } from "~/modules/tasks/project-completions.server";
import { createTestServices } from "#tests/setup/test-services";
import { createCompletion, listCompletions } from "~/modules/api/endpoints/completions.server";

let services: Services;
let big: Awaited<ReturnType<typeof apiTestProject>>;
let small: Awaited<ReturnType<typeof apiTestProject>>;
let key: string;
const ROWS = 100_000;
const WALLET = getAddress("0x00000000000000000000000000000000000000ab");

const taskRow = (id: string, projectId: string, campaignId: string | null = null) =>
  ({ id, projectId, campaignId, title: id, type: "visit_link", xp: 1, verification: "none" }) as const;

beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000000" });
  const { db } = services.database;
  big = await apiTestProject(services, "big");
  small = await apiTestProject(services, "small");
  key = await small.keyWith(["read"]);
  await db.insert(campaign).values({ id: "c1", projectId: small.projectId, slug: "c1", name: "C1", startsAt: new Date(0), endsAt: new Date(0) });
  await db.insert(task).values([taskRow("t-big", big.projectId), taskRow("t-a", small.projectId, "c1"), taskRow("t-b", small.projectId)]);
  await db.execute(sql`insert into "user" (id, email, name) select 'u' || i, 'u' || i || '@example.com', 'U' || i from generate_series(0, 999) i`);
  await db.insert(walletAddress).values({ id: "w", userId: "u7", address: WALLET, chainId: 1 });
  // 100,000 completions in one statement; of each three, two share a creation time (the key's
  // tie-break is the id) and the third comes a microsecond later, which a JS Date cannot tell.
  await db.execute(sql`
    insert into completion (id, task_id, user_id, period, status, created_at)
    select 'c' || lpad(i::text, 6, '0'), 't-big', 'u' || (i % 1000), i::text, 'approved',
           timestamptz '2026-01-01' + (i / 3) * interval '1 millisecond' + (i % 3 = 1)::int * interval '1 microsecond'
    from generate_series(1, ${ROWS}) i`);
  // As autovacuum would after such an insert: the planner's figures for the new rows.
  await db.execute(sql`analyze completion`);
  await db.insert(completion).values([
    { id: "s1", taskId: "t-a", userId: "u7", period: "once", status: "approved", createdAt: new Date("2026-02-01T00:00:00Z"), verifiedBy: "none" },
    { id: "s2", taskId: "t-a", userId: "u8", period: "once", status: "pending", createdAt: new Date("2026-02-02T00:00:00Z") },
    { id: "s3", taskId: "t-b", userId: "u7", period: "once", status: "rejected", createdAt: new Date("2026-02-03T00:00:00Z"), reason: "Not the right link." },
  ]);
}, 120_000);
afterAll(() => services.close());

const list = (path: string, withKey = key) => callApi(services, listCompletions, { key: withKey, path });
const ids = async (query: string) => ((await list(`/completions${query}`)).body as { data: { id: string }[] }).data.map((c) => c.id);

describe("GET /api/v1/completions", () => {
  it("pages through 100,000 rows 100 at a time, each once, none missing, in (time to the microsecond, id) order; the route's pages are the same", async () => {
    const started = performance.now();
    const seen: string[] = [];
    let after: CompletionKey | null = null;
    do {
      const page: Awaited<ReturnType<typeof listProjectCompletions>> = await listProjectCompletions({
        db: services.database.db,
        projectId: big.projectId,
        after,
        limit: 100,
      });
      expect(page.rows.length).toBe(100);
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after);
    const paging = performance.now() - started;
    expect(new Set(seen).size).toBe(ROWS);
    const at = (i: number) => Math.floor(i / 3) * 1000 + (i % 3 === 1 ? 1 : 0);
    const order = Array.from({ length: ROWS }, (_, k) => k + 1).sort((a, b) => at(a) - at(b) || a - b);
    expect(seen).toEqual(order.map((i) => `c${String(i).padStart(6, "0")}`));

    // The first 20 pages through the whole pipeline, cursor and all.
    const bigKey = await big.keyWith(["read"]);
    const routed: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const answer = await list(`/completions?limit=100${cursor ? `&cursor=${cursor}` : ""}`, bigKey);
      expect(answer.status).toBe(200);
      const body = answer.body as { data: { id: string; member_id: string; status: string }[]; next_cursor: string | null };
      routed.push(...body.data.map((c) => c.id));
      cursor = body.next_cursor;
    }
    expect(routed).toEqual(seen.slice(0, 2000));
    console.info(
      `100,000 completions: 1,000 pages in ${Math.round(paging)} ms, then 20 pages through the route in ${Math.round(performance.now() - started - paging)} ms`,
    );
  }, 120_000);

  it("answers the key's project only, as snake_case objects", async () => {
    const answer = await list("/completions");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        {
          id: "s1",
          task_id: "t-a",
          campaign_id: "c1",
          crusade_id: null,
          member_id: "u7",
          period: "once",
          status: "approved",
          verified_by: "none",
          reason: null,
          created_at: "2026-02-01T00:00:00.000Z",
          reviewed_at: null,
        },
        expect.objectContaining({ id: "s2", status: "pending" }),
        expect.objectContaining({ id: "s3", status: "rejected", reason: "Not the right link." }),
      ],
      next_cursor: null,
    });
  });

  it("filters by task, campaign, status, member, wallet (any case) and time; another project's task finds nothing", async () => {
    expect(await ids("?task_id=t-a")).toEqual(["s1", "s2"]);
    expect(await ids("?task_id=t-big")).toEqual([]);
    expect(await ids("?campaign_id=c1")).toEqual(["s1", "s2"]);
    expect(await ids("?status=rejected")).toEqual(["s3"]);
    expect(await ids("?member_id=u7")).toEqual(["s1", "s3"]);
    expect(await ids(`?wallet=${WALLET.toLowerCase()}`)).toEqual(["s1", "s3"]);
    expect(await ids(`?wallet=${WALLET.toUpperCase().replace("0X", "0x")}`)).toEqual(["s1", "s3"]);
    expect(await ids("?wallet=0x00000000000000000000000000000000000000ac")).toEqual([]);
    expect(await ids(`?wallet=${WALLET}&member_id=u8`)).toEqual([]);
    expect(await ids("?since=2026-02-02T00:00:00Z")).toEqual(["s2", "s3"]);
    expect(await ids("?limit=2")).toEqual(["s1", "s2"]);
  });

  it("refuses a bad query with field errors, in the one error shape", async () => {
    const answer = await list("/completions?status=done&wallet=0x12&since=yesterday&limit=0");
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: "invalid",
        message: "The query is refused: see fields.",
        fields: {
          status: expect.any(String),
          wallet: "wallet must be an address: 0x and 40 hex digits",
          since: "since must be an ISO 8601 time, such as 2026-01-31T12:00:00Z",
          limit: "limit must be a whole number from 1 to 100",
        },
      },
    });
    // A cursor made by hand, well-formed but not holding a time: refused, not a database error.
    const forged = Buffer.from(JSON.stringify(["yesterday", "s1"])).toString("base64url");
    expect((await list(`/completions?cursor=${forged}`)).body).toEqual({
      error: { code: "invalid", message: "cursor is not one this API gave", fields: { cursor: "cursor is not one this API gave" } },
    });
  });
});

describe("POST /api/v1/completions", () => {
  const push = (withKey: string, body: unknown, headers: Record<string, string> = { "Idempotency-Key": "k1" }) =>
    callApi(services, createCompletion, { key: withKey, body, headers });

  it("needs completions:write: a read key is refused", async () => {
    const answer = await push(key, { task_id: "t-a", member_id: "u7", done: true });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: { code: "forbidden" } });
  });

  it("refuses a push without an Idempotency-Key, or with a body that is not one", async () => {
    const writer = await small.keyWith(["completions:write"]);
    const noKey = await push(writer, { task_id: "t-a", member_id: "u7", done: true }, {});
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({ error: { code: "invalid", fields: { "Idempotency-Key": expect.any(String) } } });
    const bad = await push(writer, { task_id: "", done: "yes", reason: "x".repeat(501) });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { error: { fields: object } }).error.fields).sort()).toEqual(["done", "member_id", "reason", "task_id"]);
    const nul = await push(writer, { task_id: "t-a", member_id: "u7", done: true, reason: "bad\u0000byte" });
    expect(nul).toMatchObject({ status: 400, body: { error: { code: "invalid", fields: { body: "Remove the NUL character (\\u0000)." } } } });
    const notJson = await push(writer, "{not json");
    expect(notJson.body).toMatchObject({ error: { code: "invalid", fields: { body: "The body must be JSON." } } });
  });

  it("records a pushed completion of an api_check task once (201, then already), refuses another task type, and records nothing when not done", async () => {
    const { db } = services.database;
    await db.insert(task).values({
      ...taskRow("t-api", small.projectId),
      type: "api_check",
      verification: "auto",
      config: { url: "https://example.com/check", instructions: "" },
      publishedAt: new Date(0),
    });
    const writer = await small.keyWith(["completions:write"]);
    const first = await push(writer, { task_id: "t-api", member_id: "u9", done: true, reason: "Bridged 0.1 ETH" }, { "Idempotency-Key": "p-1" });
    expect(first).toMatchObject({ status: 201, body: { status: "approved", completion_id: expect.any(String) } });
    const again = await push(writer, { task_id: "t-api", member_id: "u9", done: true }, { "Idempotency-Key": "p-2" });
    expect(again).toMatchObject({ status: 200, body: { status: "already" } });
    const notDone = await push(writer, { task_id: "t-api", member_id: "u10", done: false, reason: "No bridge yet" }, { "Idempotency-Key": "p-3" });
    expect(notDone.body).toMatchObject({ status: "not_done", completion_id: null });
    const wrongType = await push(writer, { task_id: "t-a", member_id: "u9", done: true }, { "Idempotency-Key": "p-4" });
    expect(wrongType.status).toBe(409);
    const made = await db
      .select()
      .from(completion)
      .where(sql`${completion.taskId} = 't-api'`);
    expect(made.map((row) => ({ userId: row.userId, status: row.status }))).toEqual([{ userId: "u9", status: "approved" }]);
  });
});
