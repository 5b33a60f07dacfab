import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { signedHeaders } from "~/lib/webhook-signature.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { projectSigningSecretOf } from "~/modules/tasks/signing-secret.server";
import { answerDemoApiCheck, seedApiCheck } from "./seed-api-check.server";

let database: Database;
const tokenKey = randomBytes(32);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(["m1", "m2", "m3"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await database.db.insert(walletAddress).values({ id: "w2", userId: "m2", address: "0x00000000000000000000000000000000000000b2", chainId: 31337 });
});
afterAll(() => database.close());

describe("the demo's api_check task", () => {
  it("is completed through the real check by the members with a wallet, then points at /dev/api-check", async () => {
    const seeded = await seedApiCheck({
      db: database.db,
      tokenKey,
      appUrl: "http://localhost:3000",
      projectId: "p",
      memberIds: ["m1", "m2", "m3"],
      now: new Date(),
    });
    expect(seeded.approved).toBe(1);
    const [saved] = await database.db.select().from(task).where(eq(task.id, seeded.taskId));
    expect(saved).toMatchObject({ type: "api_check", config: { url: "http://localhost:3000/dev/api-check" } });
    expect(saved!.publishedAt).not.toBeNull();
    const rows = await database.db.select().from(completion).where(eq(completion.taskId, seeded.taskId));
    expect(rows).toMatchObject([{ userId: "m2", status: "approved", verifiedBy: "project", evidence: { kind: "project", status: 200 } }]);
  });

  it("answers only requests signed with the project's secret", async () => {
    const [t] = await database.db.select({ id: task.id }).from(task).where(eq(task.type, "api_check"));
    const body = JSON.stringify({ type: "api_check", task: { id: t!.id, title: "x" }, member: { id: "m1", wallets: [] }, timestamp: "" });
    const secret = (await projectSigningSecretOf({ db: database.db, projectId: "p", tokenKey }))!;
    const signed = (with_: string) => signedHeaders({ secrets: [with_], id: "msg_1", timestamp: Math.floor(Date.now() / 1000), body });
    expect(await answerDemoApiCheck({ db: database.db, tokenKey, headers: signed(secret), body })).toEqual({
      status: 200,
      json: { done: false, reason: "Connect a wallet first" },
    });
    expect((await answerDemoApiCheck({ db: database.db, tokenKey, headers: signed("whsec_" + randomBytes(32).toString("base64")), body })).status).toBe(401);
  });
});
