import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { projectMember } from "#db/schema/projects";
import { apiKey } from "#db/schema/reach";
import type { Services } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { answer } from "#tests/setup/route-call";
import { createApiKey, findApiCaller, keyLimitRefusal, listApiKeys, MAX_LIVE_KEYS, revokeApiKey, touchApiKey } from "./api-keys.server";
import { apiTestProject } from "./api-test-kit.server";

let services: Services;
let project: Awaited<ReturnType<typeof apiTestProject>>;
beforeAll(async () => {
  services = await createTestServices();
  project = await apiTestProject(services, "keys");
  const db = services.database.db;
  for (const role of ["admin", "reviewer"] as const) {
    await db.insert(user).values({ id: `keys-${role}`, email: `keys-${role}@example.com`, name: role, emailVerified: true });
    await db.insert(projectMember).values({ projectId: project.projectId, userId: `keys-${role}`, role });
  }
  await db.insert(user).values({ id: "keys-stranger", email: "keys-stranger@example.com", name: "stranger", emailVerified: true });
});
afterAll(() => services.close());

describe("project API keys", () => {
  it("shows the whole key once and stores only its SHA-256 and a short prefix", async () => {
    const db = services.database.db;
    const created = await createApiKey({ db, projectId: project.projectId, name: "Bot", scopes: ["read", "xp:write", "read"], createdBy: project.ownerId });
    expect(created.key).toMatch(/^ql_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({ name: "Bot", prefix: created.key.slice(0, 11), scopes: ["read", "xp:write"], lastUsedAt: null, revokedAt: null });
    expect(created.apiKey).not.toHaveProperty("hash");
    const [stored] = await db.select().from(apiKey).where(eq(apiKey.id, created.apiKey.id));
    expect(stored!.hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(11));
    const listed = await listApiKeys({ db, projectId: project.projectId });
    expect(listed.find((key) => key.id === created.apiKey.id)).toEqual(created.apiKey);
    expect(JSON.stringify(listed)).not.toContain(stored!.hash);
    expect(await findApiCaller({ db, key: created.key })).toMatchObject({
      keyId: created.apiKey.id,
      projectId: project.projectId,
      scopes: ["read", "xp:write"],
    });
  });

  it("lets owners and admins create and revoke keys; a reviewer or a stranger gets a 403", async () => {
    const db = services.database.db;
    const byAdmin = await createApiKey({ db, projectId: project.projectId, name: "Admin's", scopes: ["read"], createdBy: "keys-admin" });
    for (const who of ["keys-reviewer", "keys-stranger"]) {
      const refused = await answer(() => createApiKey({ db, projectId: project.projectId, name: "No", scopes: ["read"], createdBy: who }));
      expect((refused as unknown as { init: { status: number } }).init.status).toBe(403);
      const notRevoked = await answer(() => revokeApiKey({ db, projectId: project.projectId, keyId: byAdmin.apiKey.id, revokedBy: who }));
      expect((notRevoked as unknown as { init: { status: number } }).init.status).toBe(403);
    }
    const revoked = await revokeApiKey({
      db,
      projectId: project.projectId,
      keyId: byAdmin.apiKey.id,
      revokedBy: "keys-admin",
      now: new Date("2026-02-01T00:00:00Z"),
    });
    expect(revoked).toMatchObject({ ok: true, apiKey: { revokedAt: new Date("2026-02-01T00:00:00Z") } });
    expect(await revokeApiKey({ db, projectId: project.projectId, keyId: byAdmin.apiKey.id, revokedBy: project.ownerId })).toMatchObject({
      ok: false,
      code: "conflict",
    });
    expect(await revokeApiKey({ db, projectId: project.projectId, keyId: "nope", revokedBy: project.ownerId })).toMatchObject({ ok: false, code: "not_found" });
    expect(await findApiCaller({ db, key: byAdmin.key })).toBeNull();
  });

  it("writes the last use at most once a minute", async () => {
    const db = services.database.db;
    const { key, apiKey: created } = await createApiKey({ db, projectId: project.projectId, name: "Used", scopes: ["read"], createdBy: project.ownerId });
    const lastUsed = async () => (await db.select({ at: apiKey.lastUsedAt }).from(apiKey).where(eq(apiKey.id, created.id)))[0]!.at;
    const t0 = new Date("2026-03-01T12:00:00Z");
    await touchApiKey({ db, caller: (await findApiCaller({ db, key }))!, now: t0 });
    expect(await lastUsed()).toEqual(t0);
    await touchApiKey({ db, caller: (await findApiCaller({ db, key }))!, now: new Date(t0.getTime() + 59_000) });
    expect(await lastUsed()).toEqual(t0);
    const t1 = new Date(t0.getTime() + 61_000);
    await touchApiKey({ db, caller: (await findApiCaller({ db, key }))!, now: t1 });
    expect(await lastUsed()).toEqual(t1);
  });

  it("refuses a key past the live ones a project may hold (a flood of keys), until one is revoked", async () => {
    const db = services.database.db;
    const other = await apiTestProject(services, "keys-flood");
    const made = [];
    for (let i = 0; i < MAX_LIVE_KEYS; i++)
      made.push(await createApiKey({ db, projectId: other.projectId, name: `k${i}`, scopes: ["read"], createdBy: other.ownerId }));
    const refused = await answer(() => createApiKey({ db, projectId: other.projectId, name: "one more", scopes: ["read"], createdBy: other.ownerId }));
    expect((refused as unknown as { init: { status: number } }).init.status).toBe(409);
    expect(await keyLimitRefusal({ db, projectId: other.projectId })).toMatchObject({ code: "conflict" });
    await revokeApiKey({ db, projectId: other.projectId, keyId: made[0]!.apiKey.id, revokedBy: other.ownerId });
    expect(await keyLimitRefusal({ db, projectId: other.projectId })).toBeNull();
  });
});
