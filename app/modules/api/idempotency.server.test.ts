import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiIdempotency } from "#db/schema/reach";
import { rowsOf, type Db } from "~/lib/db.server";
import { failure, ok } from "~/lib/result";
import type { Services } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { apiEndpoint, apiOperations } from "./api-route.server";
import { apiRegistry } from "./openapi-registry.server";
import { apiTestProject, callApi } from "./api-test-kit.server";
import { purgeIdempotency } from "./idempotency.server";
import { z } from "./openapi-zod";

let services: Services;
let key: string;
beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000" });
  key = await (await apiTestProject(services, "idem")).keyWith(["xp:write"]);
  await services.database.db.execute(sql`create table effect (id serial primary key, amount int not null)`);
});
afterAll(async () => {
  // Test files share a worker's modules (isolate: false): this file's test operation leaves the
  // registry, so another file's walk over every registered operation never meets it.
  apiOperations.splice(apiOperations.indexOf(grant), 1);
  const definitions = apiRegistry.definitions as { type: string; route?: { path: string } }[];
  definitions.splice(0, definitions.length, ...definitions.filter((d) => !(d.type === "route" && d.route?.path === "/test-grants")));
  await services.close();
});

const effects = async (db: Db = services.database.db) => Number(rowsOf(await db.execute(sql`select count(*) as n from effect`))[0]!.n);

/** A write made for this test: one row per effect, so a second run shows. */
const grant = apiEndpoint({
  method: "post",
  path: "/test-grants",
  scope: "xp:write",
  summary: "A test write",
  idempotent: true,
  successStatus: 201,
  body: z.object({ amount: z.number().int() }),
  response: z.object({ effects: z.number().int() }),
  handler: async ({ db, body }) => {
    if (body.amount < 0) return failure("conflict", "No negative amounts.");
    await db.execute(sql`select pg_sleep(0.001)`);
    await db.execute(sql`insert into effect (amount) values (${body.amount})`);
    return ok({ body: { effects: await effects(db) }, status: 201 });
  },
});

describe("Idempotency-Key writes", () => {
  it("requires the header: 400 naming it", async () => {
    const answer = await callApi(services, grant, { key, body: { amount: 1 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid", fields: { "Idempotency-Key": expect.stringContaining("Idempotency-Key") } } });
    expect(await effects()).toBe(0);
  });

  it("runs 20 parallel identical requests once: every one answers the first answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callApi(services, grant, { key, body: { amount: 5 }, headers: { "idempotency-key": "grant-1" } })),
    );
    expect(await effects()).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(answers.map((answer) => answer.body)).toEqual(Array(20).fill({ effects: 1 }));
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
  });

  it("answers the same key with another body 422, and runs nothing", async () => {
    const answer = await callApi(services, grant, { key, body: { amount: 6 }, headers: { "idempotency-key": "grant-1" } });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: { code: "idempotency_mismatch", message: expect.stringContaining("another request") } });
    expect(await effects()).toBe(1);
  });

  it("keeps a refusal too: the same key answers it again", async () => {
    const first = await callApi(services, grant, { key, body: { amount: -1 }, headers: { "idempotency-key": "grant-2" } });
    expect(first.status).toBe(409);
    const again = await callApi(services, grant, { key, body: { amount: -1 }, headers: { "idempotency-key": "grant-2" } });
    expect(again).toMatchObject({ status: 409, body: first.body });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("forgets answers after 24 hours", async () => {
    const db = services.database.db;
    const before = Number(rowsOf(await db.execute(sql`select count(*) as n from api_idempotency`))[0]!.n);
    expect(before).toBe(2);
    await db
      .update(apiIdempotency)
      .set({ createdAt: new Date("2026-01-01T00:00:00Z") })
      .where(sql`idempotency_key = 'grant-1'`);
    expect(await purgeIdempotency({ db, now: new Date("2026-01-02T00:00:01Z") })).toBe(1);
    const after = await callApi(services, grant, { key, body: { amount: 5 }, headers: { "idempotency-key": "grant-1" } });
    expect(after.body).toEqual({ effects: 2 });
  });
});
