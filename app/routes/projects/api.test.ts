import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { apiKey } from "#db/schema/reach";
import { hashApiKey } from "~/modules/api/api-keys.server";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./api";

let services: Services;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  services = await createTestServices();
  for (const id of ["own", "adm", "rev", "mem"]) cookies[id] = (await signedInMember(services, id)).cookie;
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "adm", role: "admin" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
});
afterAll(() => services.close());

const page = (who: string) =>
  answer(() => loader(routeArgs(services, new Request("http://localhost:3000/projects/p/api", { headers: { cookie: cookies[who]! } }), { project: "p" })));
/** A form posted as a browser without JavaScript posts it. */
const post = (who: string, form: Record<string, string>) =>
  answer(() =>
    action(
      routeArgs(
        services,
        new Request("http://localhost:3000/projects/p/api", { method: "POST", headers: { cookie: cookies[who]! }, body: new URLSearchParams(form) }),
        { project: "p" },
      ),
    ),
  );

type Answer = { data: Record<string, unknown>; init: { status?: number; headers?: Record<string, string> } | null };
type Keys = { keys: Record<string, unknown>[] };

describe("a project's API page", () => {
  it("is for owners and admins: a reviewer or another member gets a 403, a visitor is sent to sign in", async () => {
    expect(((await page("own")) as Keys).keys).toEqual([]);
    expect(((await page("adm")) as Keys).keys).toEqual([]);
    for (const who of ["rev", "mem"]) {
      expect(((await page(who)) as unknown as Answer).init?.status).toBe(403);
      expect(((await post(who, { intent: "create", name: "x", "scope.read": "on" })) as Answer).init?.status).toBe(403);
    }
    const visitor = (await answer(() => loader(routeArgs(services, new Request("http://localhost:3000/projects/p/api"), { project: "p" })))) as Response;
    expect(visitor.status).toBe(302);
  });

  it("creates a key from the form and shows it once: the page's data never holds it again, nor its hash", async () => {
    const created = (await post("adm", { intent: "create", name: "Discord bot", "scope.read": "on", "scope.xp:write": "on" })) as Answer;
    expect(created.init?.status ?? 200).toBe(200);
    expect(created.init?.headers?.["Cache-Control"]).toBe("no-store");
    const key = created.data.key as string;
    expect(key).toMatch(/^ql_[A-Za-z0-9_-]{43}$/);
    const [stored] = await services.database.db.select().from(apiKey);
    expect(stored).toMatchObject({ name: "Discord bot", scopes: ["read", "xp:write"], hash: hashApiKey(key), createdBy: "adm" });
    const loaded = JSON.stringify(await page("own"));
    expect(loaded).toContain("Discord bot");
    expect(loaded).not.toContain(key.slice(11));
    expect(loaded).not.toContain(stored!.hash);
  });

  it("refuses a form without a name or a scope, in words, keeping what was entered", async () => {
    const refused = (await post("own", { intent: "create", name: " " })) as Answer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toEqual({
      ok: false,
      errors: { name: "Name the key: who or what uses it", scopes: "Choose at least one scope" },
      values: { name: " ", scopes: [] },
    });
  });

  it("revokes a key and says so in a toast; the list shows it revoked", async () => {
    const [stored] = await services.database.db.select().from(apiKey);
    const revoked = (await post("own", { intent: "revoke", id: stored!.id })) as Response;
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("location")).toBe("/projects/p/api");
    expect(revoked.headers.get("set-cookie")).toBeTruthy();
    const listed = ((await page("own")) as Keys).keys;
    expect(listed).toEqual([expect.objectContaining({ id: stored!.id, revokedAt: expect.any(Date) })]);
  });
});
