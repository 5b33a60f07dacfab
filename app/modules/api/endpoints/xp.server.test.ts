import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { appEvent } from "#db/schema/reach";
import { completion, task } from "#db/schema/quests";
import { xpEvent } from "#db/schema/xp";
import type { Services } from "~/services/services.server";
import { apiTestProject, callApi } from "~/modules/api/api-test-kit.server";
import { API_GRANT_SOURCE, grantApiXp } from "~/modules/leaderboards/api-grants.server";
import { rankOf } from "~/modules/leaderboards/leaderboards.server";
import { createTestServices } from "#tests/setup/test-services";
import { grantXp } from "~/modules/api/endpoints/xp-grants.server";
import { revokeXp } from "~/modules/api/endpoints/xp-revocations.server";

let services: Services;
let mine: Awaited<ReturnType<typeof apiTestProject>>;
let theirs: Awaited<ReturnType<typeof apiTestProject>>;
let writer: string;

beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000" });
  const { db } = services.database;
  mine = await apiTestProject(services, "mine");
  theirs = await apiTestProject(services, "theirs");
  writer = await mine.keyWith(["xp:write"]);
  await db.insert(user).values([
    { id: "m1", email: "m1@example.com", name: "M1" },
    { id: "stranger", email: "s@example.com", name: "S" },
  ]);
  // m1 took part in `mine` (one completion); the stranger in nothing.
  await db.insert(task).values({ id: "t1", projectId: mine.projectId, title: "T", type: "visit_link", xp: 1, verification: "none" });
  await db.insert(completion).values({ id: "k1", taskId: "t1", userId: "m1", period: "once", status: "pending" });
});
afterAll(() => services.close());

const board = () => rankOf({ db: services.database.db, board: `p:${mine.projectId}|all`, userId: "m1" });
const grant = (body: unknown, idempotencyKey: string | null, key = writer) =>
  callApi(services, grantXp, { key, body, headers: idempotencyKey === null ? {} : { "Idempotency-Key": idempotencyKey } });
const revoke = (grantId: string, idempotencyKey: string, key = writer) =>
  callApi(services, revokeXp, { key, body: { grant_id: grantId }, headers: { "Idempotency-Key": idempotencyKey } });

describe("POST /api/v1/xp/grants", () => {
  it("grants once for 20 parallel identical requests: one xp_event, one xp.changed, 20 identical answers", async () => {
    const body = { member_id: "m1", amount: 250, reason: "Joined our Discord" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => grant(body, "same-key")));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const first = answers[0]!.body;
    for (const answer of answers) expect(answer.body).toEqual(first);
    expect(first).toEqual({
      id: expect.stringMatching(/^\d+$/),
      member_id: "m1",
      amount: 250,
      reason: "Joined our Discord",
      created_at: expect.any(String),
      revoked: false,
    });
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const events = await services.database.db.select().from(xpEvent).where(eq(xpEvent.sourceType, API_GRANT_SOURCE));
    expect(events).toEqual([expect.objectContaining({ userId: "m1", projectId: mine.projectId, amount: 250, sourceId: expect.stringContaining(":same-key") })]);
    expect(String(events[0]!.id)).toBe((first as { id: string }).id);
    expect(await board()).toEqual({ rank: 1, score: 250 });
    const changed = await services.database.db.select().from(appEvent).where(like(appEvent.key, "xp.changed:api_grant:%"));
    // The award's own event, once (the source names the key and the Idempotency-Key).
    expect(changed.map((e) => e.data)).toEqual([{ userId: "m1", delta: 250, source: expect.stringMatching(/^api_grant:.*:same-key$/) }]);
  });

  it("is once per key and Idempotency-Key even without the API's table of answers: twins of the domain call make one award", async () => {
    const twins = await Promise.all(
      Array.from({ length: 20 }, () =>
        grantApiXp({ db: services.database.db, projectId: mine.projectId, keyId: "k-direct", idempotencyKey: "twin", userId: "m1", amount: 5, reason: "x" }),
      ),
    );
    expect(new Set(twins.map((t) => (t.ok ? t.grant.id : "refused"))).size).toBe(1);
    const events = await services.database.db
      .select()
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceType, API_GRANT_SOURCE), eq(xpEvent.sourceId, "k-direct:twin")));
    expect(events).toHaveLength(1);
    expect(await board()).toEqual({ rank: 1, score: 255 });
  });

  it("refuses a member who never took part in the project (404), a bad body (400 with fields), a missing Idempotency-Key (400) and a read key (403)", async () => {
    const stranger = await grant({ member_id: "stranger", amount: 10, reason: "hi" }, "k-stranger");
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ error: { code: "not_found", message: "No member with this id has taken part in this project." } });
    const theirKey = await theirs.keyWith(["xp:write"]);
    expect((await grant({ member_id: "m1", amount: 10, reason: "hi" }, "k-theirs", theirKey)).status).toBe(404);

    for (const amount of [0, 10_001, 1.5, "10"]) {
      const bad = await grant({ member_id: "m1", amount, reason: "hi" }, `k-bad-${amount}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: { code: "invalid", message: "The body is refused: see fields.", fields: { amount: "amount must be a whole number from 1 to 10,000" } },
      });
    }
    expect((await grant({ member_id: "m1", amount: 1 }, "k-no-reason")).body).toMatchObject({ error: { fields: { reason: expect.any(String) } } });
    expect((await grant({ member_id: "m1", amount: 1, reason: "hi" }, null)).body).toMatchObject({
      error: { code: "invalid", fields: { "Idempotency-Key": expect.any(String) } },
    });
    expect((await grant({ member_id: "m1", amount: 1, reason: "hi" }, "k-read", await mine.keyWith(["read"]))).status).toBe(403);
    expect(await board()).toEqual({ rank: 1, score: 255 });
  });
});

describe("POST /api/v1/xp/revocations", () => {
  it("takes a grant back once, by its id, on the XP ledger (an api_grant_void event); again answers the same", async () => {
    const made = await grant({ member_id: "m1", amount: 40, reason: "Bug report" }, "to-revoke");
    const id = (made.body as { id: string }).id;
    expect(await board()).toEqual({ rank: 1, score: 295 });
    const first = await revoke(id, "r1");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id, member_id: "m1", amount: 40, created_at: (made.body as { created_at: string }).created_at, revoked: true });
    expect(await board()).toEqual({ rank: 1, score: 255 });
    const again = await revoke(id, "r2");
    expect(again.body).toEqual(first.body);
    expect(await board()).toEqual({ rank: 1, score: 255 });
    const voids = await services.database.db
      .select()
      .from(xpEvent)
      .where(eq(xpEvent.sourceType, `${API_GRANT_SOURCE}_void`));
    expect(voids.map((v) => v.amount)).toEqual([-40]);
  });

  it("finds no grant of another project, of another kind, or by a malformed id (404)", async () => {
    const made = await grant({ member_id: "m1", amount: 3, reason: "x" }, "kept");
    const id = (made.body as { id: string }).id;
    expect((await revoke(id, "r-theirs", await theirs.keyWith(["xp:write"]))).status).toBe(404);
    const [award] = await services.database.db
      .insert(xpEvent)
      .values({ userId: "m1", projectId: mine.projectId, sourceType: "completion", sourceId: "k1", amount: 1 })
      .returning({ id: xpEvent.id });
    expect((await revoke(String(award!.id), "r-completion")).status).toBe(404);
    expect((await revoke("abc", "r-abc")).body).toEqual({ error: { code: "not_found", message: "No XP grant of this project has this id." } });
  });
});
