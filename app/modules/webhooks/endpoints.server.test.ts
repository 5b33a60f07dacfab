import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "#tests/setup/test-db";
import { user } from "#db/schema/auth";
import { webhookEndpoint } from "#db/schema/reach";
import type { Database, Db } from "~/lib/db.server";
import { decryptToken } from "~/lib/secret-box.server";
import { projectSchema } from "~/modules/projects/project.schema";
import { createProject } from "~/modules/projects/projects.server";
import { createEndpoint, deleteEndpoint, endpointInProject, listEndpoints, rotateEndpointSecret, signingSecrets, updateEndpoint } from "./endpoints.server";
import { endpointFormValues, endpointSchema, MAX_ENDPOINTS_PER_PROJECT } from "./webhook.schema";

let database: Database;
let db: Db;
let projectId: string;
const tokenKey = randomBytes(32);
const input = (url: string) => endpointSchema.parse({ url, description: "bot", eventTypes: ["completion.approved", "reward.paid"] });

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.insert(user).values({ id: "owner", email: "owner@example.com", name: "Olive" });
  const created = await createProject({
    db,
    userId: "owner",
    input: projectSchema.parse({ name: "Acme", slug: "acme", description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" }),
  });
  if (!created.ok) throw new Error("no project");
  projectId = created.project.id;
});
afterAll(() => database.close());

const create = (url: string, allowLoopback = false) => createEndpoint({ db, tokenKey, allowLoopback, projectId, userId: "owner", input: input(url) });

describe("webhook endpoints", () => {
  it("refuses private, link-local, metadata and (in public mode) loopback URLs at save", async () => {
    for (const url of ["http://10.1.2.3/x", "http://169.254.169.254/latest/meta-data", "http://192.168.1.1/", "http://[fc00::1]/", "http://127.0.0.1:9/"]) {
      const result = await create(url);
      expect(result.ok, url).toBe(false);
      if (!result.ok && result.code === "invalid") expect(result.errors.url).toMatch(/refused/);
    }
    expect(await create("ftp://example.com/")).toMatchObject({ ok: false, errors: { url: expect.stringContaining("https://") } });
    // The local trial may reach this machine.
    expect((await create("http://127.0.0.1:9/", true)).ok).toBe(true);
  });

  it("keeps the secret encrypted, shows it once, and never lists it", async () => {
    const created = await create("http://127.0.0.1:9/a", true);
    if (!created.ok) throw new Error("refused");
    expect(created.secret).toMatch(/^whsec_/);
    const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, created.endpoint.id));
    expect(row!.secret).not.toContain(created.secret.slice(6));
    expect(decryptToken(tokenKey, row!.secret)).toBe(created.secret);
    expect(JSON.stringify(await listEndpoints({ db, projectId }))).not.toContain(created.secret.slice(6));
    expect(JSON.stringify(await endpointInProject({ db, projectId, endpointId: created.endpoint.id }))).not.toMatch(/gcm1:|whsec_/);
  });

  it("rotates: the new secret first, the previous one valid for 24 hours more", async () => {
    const created = await create("http://127.0.0.1:9/b", true);
    if (!created.ok) throw new Error("refused");
    const now = new Date("2026-06-01T00:00:00Z");
    const rotated = await rotateEndpointSecret({ db, tokenKey, projectId, endpointId: created.endpoint.id, now });
    if (!rotated.ok) throw new Error("not rotated");
    const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, created.endpoint.id));
    expect(signingSecrets({ tokenKey, now }, row!)).toEqual([rotated.secret, created.secret]);
    expect(signingSecrets({ tokenKey, now: new Date(now.getTime() + 24 * 3_600_000 + 1) }, row!)).toEqual([rotated.secret]);
    expect(await rotateEndpointSecret({ db, tokenKey, projectId: "other", endpointId: created.endpoint.id, now })).toMatchObject({ code: "not_found" });
  });

  it("edits with the same URL check, deletes only in its project, and keeps at most the limit per project", async () => {
    const created = await create("http://127.0.0.1:9/c", true);
    if (!created.ok) throw new Error("refused");
    const endpointId = created.endpoint.id;
    expect(await updateEndpoint({ db, allowLoopback: false, projectId, endpointId, input: input("http://127.0.0.1:9/c") })).toMatchObject({
      ok: false,
      code: "invalid",
    });
    expect(
      await updateEndpoint({ db, allowLoopback: true, projectId, endpointId, input: { ...input("http://127.0.0.1:9/d"), eventTypes: ["xp.changed"] } }),
    ).toEqual({ ok: true });
    expect(await endpointInProject({ db, projectId, endpointId })).toMatchObject({ url: "http://127.0.0.1:9/d", eventTypes: ["xp.changed"] });
    expect(await deleteEndpoint({ db, projectId: "other", endpointId })).toMatchObject({ code: "not_found" });

    const have = (await listEndpoints({ db, projectId })).length;
    for (let i = have; i < MAX_ENDPOINTS_PER_PROJECT; i++) expect((await create(`http://127.0.0.1:9/${i}`, true)).ok).toBe(true);
    expect(await create("http://127.0.0.1:9/over", true)).toMatchObject({ ok: false, errors: { form: expect.stringContaining("at most 10") } });
    expect(await deleteEndpoint({ db, projectId, endpointId })).toEqual({ ok: true });
    expect((await create("http://127.0.0.1:9/again", true)).ok).toBe(true);
  });

  it("reads the ticked event types from the form and refuses unknown ones", () => {
    const form = new FormData();
    form.append("url", "https://example.com/hook");
    form.append("eventTypes", "reward.paid");
    form.append("eventTypes", "reward.paid");
    form.append("eventTypes", "xp.changed");
    expect(endpointSchema.parse(endpointFormValues(form)).eventTypes).toEqual(["reward.paid", "xp.changed"]);
    form.append("eventTypes", "deposit.credited");
    expect(endpointSchema.safeParse(endpointFormValues(form)).success).toBe(false);
    expect(endpointSchema.safeParse({ url: "https://example.com", eventTypes: [] }).success).toBe(false);
  });
});
