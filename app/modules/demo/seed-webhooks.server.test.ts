import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "#tests/setup/test-db";
import { project } from "#db/schema/projects";
import { webhookEndpoint } from "#db/schema/reach";
import type { Database } from "~/lib/db.server";
import { seedWebhooks } from "./seed-webhooks.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(project).values({ id: "p1", slug: "lumen-swap", name: "Lumen Swap" });
});
afterAll(() => database.close());

describe("the demo's webhook endpoint", () => {
  it("points the first project at the trial's receiver, once, and never in public mode", async () => {
    const options = { db: database.db, appUrl: "http://localhost:3000/", tokenKey: randomBytes(32) };
    expect(await seedWebhooks({ ...options, isPublic: true })).toEqual({ seeded: false });
    const seeded = await seedWebhooks({ ...options, isPublic: false });
    if (!seeded.seeded) throw new Error("not seeded");
    expect(await seedWebhooks({ ...options, isPublic: false })).toEqual({ seeded: false });
    const endpoints = await database.db.select().from(webhookEndpoint);
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]).toMatchObject({ projectId: "p1", url: `http://localhost:3000/dev/webhooks/receive/${seeded.endpointId}`, enabled: true });
    expect(endpoints[0]!.eventTypes).toEqual(expect.arrayContaining(["completion.approved", "reward.paid"]));
  });
});
