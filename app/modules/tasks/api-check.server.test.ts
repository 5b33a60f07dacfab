import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { pushCompletion } from "./api-check.server";
import { attemptTask } from "./completions.server";
import { projectSigningSecretOf } from "./signing-secret.server";
import { taskFormRefusals } from "./task-form.server";
import type { TaskInput } from "./tasks.server";
import { API_CHECK_LIMIT, API_CHECK_UNAVAILABLE, type ApiCheckContext, type ApiCheckRequest } from "./verify-api-check.server";

let database: Database;
let server: Server;
let base: string;
const tokenKey = randomBytes(32);
const context: ApiCheckContext = { tokenKey, allowLoopback: true, timeoutMs: 200 };
const published = new Date("2026-01-01T00:00:00Z");
/** What the project's server received, each request checked with the standardwebhooks package. */
const received: { path: string; body: ApiCheckRequest; verified: boolean }[] = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => resolve(text));
  });

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(["ann", "bob", "cat", "dan"].map((id) => ({ id, email: `${id}@example.com`, name: id, username: id })));
  await database.db.insert(project).values([
    { id: "p", slug: "p", name: "P" },
    { id: "q", slug: "q", name: "Q" },
  ]);
  await database.db.insert(walletAddress).values({ id: "w1", userId: "ann", address: "0x00000000000000000000000000000000000000a1", chainId: 1 });
  // The project's server: checks our signature with the project's secret, then answers as its path says.
  server = createServer(async (req, res) => {
    const text = await readBody(req);
    const secret = await projectSigningSecretOf({ db: database.db, projectId: "p", tokenKey });
    let verified: boolean;
    try {
      new Webhook(secret!).verify(text, req.headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    received.push({ path: req.url ?? "", body: JSON.parse(text) as ApiCheckRequest, verified });
    const path = req.url ?? "";
    if (path === "/hang") return; // never answers
    if (path === "/fail") return void res.writeHead(500).end('{"done":true}');
    if (path === "/text") return void res.writeHead(200, { "content-type": "text/plain" }).end("yes");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(path === "/done" ? { done: verified } : { done: false, reason: "Connect a wallet first" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database.close();
});

async function makeTask(fields: Partial<typeof task.$inferInsert> & { path?: string } = {}) {
  const id = randomUUID();
  const { path = "/done", ...rest } = fields;
  await database.db.insert(task).values({
    id,
    projectId: "p",
    title: "Use the app",
    type: "api_check",
    verification: "auto",
    xp: 40,
    config: { url: base + path, instructions: "" },
    publishedAt: published,
    ...rest,
  });
  return id;
}
const check = (taskId: string, userId: string, now?: Date) =>
  attemptTask({ db: database.db, taskId, userId, input: { kind: "check" }, apiCheck: context, now });
const completionsOf = (taskId: string) => database.db.select().from(completion).where(eq(completion.taskId, taskId));
const xpEventsOf = (userId: string) => database.db.select().from(xpEvent).where(eq(xpEvent.userId, userId));

describe("a member's Check of an api_check task", () => {
  it("asks the project's server in a signed request and, when it says done, approves once and keeps its answer", async () => {
    const id = await makeTask();
    const now = new Date("2026-03-01T12:00:00Z");
    expect(await check(id, "ann", now)).toMatchObject({ ok: true, status: "approved", xpAwarded: 40 });

    const sent = received.at(-1)!;
    expect(sent.verified).toBe(true);
    expect(sent.body).toMatchObject({
      type: "api_check",
      task: { id, title: "Use the app" },
      member: { id: "ann", username: "ann", wallets: [{ address: "0x00000000000000000000000000000000000000a1", chainId: 1 }] },
    });
    expect(sent.body.test).toBeUndefined();
    const [row] = await completionsOf(id);
    expect(row).toMatchObject({ status: "approved", verifiedBy: "project" });
    expect(row!.evidence).toEqual({ kind: "project", host: new URL(base).host, status: 200, body: '{"done":true}', at: now.toISOString() });

    expect(await check(id, "ann", now)).toEqual({ ok: false, code: "not_met", message: "You have completed this task." });
    expect(await xpEventsOf("ann")).toHaveLength(1);
  });

  it("shows the project's reason when it says not yet, and records nothing", async () => {
    const id = await makeTask({ path: "/not-yet" });
    expect(await check(id, "bob")).toEqual({ ok: false, code: "not_met", message: "Not yet: Connect a wallet first" });
    expect(received.at(-1)!.body.member).toEqual({ id: "bob", username: "bob", wallets: [] });
    expect(await completionsOf(id)).toEqual([]);
  });

  it.each([
    ["does not answer in time", "/hang"],
    ["answers 500", "/fail"],
    ["answers something other than JSON", "/text"],
  ])("answers `unavailable` and records nothing when the project's server %s", async (_, path) => {
    const id = await makeTask({ path });
    const started = performance.now();
    expect(await check(id, "cat")).toEqual({ ok: false, code: "unavailable", message: API_CHECK_UNAVAILABLE });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await completionsOf(id)).toEqual([]);
    expect(await xpEventsOf("cat")).toEqual([]);
  });

  it("sends no request to an address refused at the connection (loopback outside the local trial)", async () => {
    const id = await makeTask();
    const before = received.length;
    const result = await attemptTask({ db: database.db, taskId: id, userId: "cat", input: { kind: "check" }, apiCheck: { ...context, allowLoopback: false } });
    expect(result).toEqual({ ok: false, code: "unavailable", message: API_CHECK_UNAVAILABLE });
    expect(received.length).toBe(before);
  });

  it(`lets a member check a task ${API_CHECK_LIMIT.max} times a minute`, async () => {
    const id = await makeTask({ path: "/not-yet" });
    const t0 = new Date("2026-03-02T12:00:00Z");
    for (let i = 0; i < API_CHECK_LIMIT.max; i++) expect(await check(id, "dan", t0)).toMatchObject({ code: "not_met" });
    expect(await check(id, "dan", new Date(t0.getTime() + 1000))).toMatchObject({ ok: false, code: "limited", retryAfterSeconds: 59 });
    expect(await check(id, "dan", new Date(t0.getTime() + 61_000))).toMatchObject({ code: "not_met" });
  });
});

describe("saving an api_check task", () => {
  const input = (url: string): TaskInput => ({
    title: "Use the app",
    description: "",
    type: "api_check",
    config: { url, instructions: "" },
    xp: 10,
    verification: "auto",
    recurrence: "once",
    startsAt: null,
    endsAt: null,
    cap: null,
    campaignId: null,
    published: true,
  });
  const chains = { get: () => undefined } as unknown as Pick<ChainRegistry, "get">;
  const refusals = (url: string, allowLoopback: boolean) => taskFormRefusals({ db: database.db, chains, projectId: "p", input: input(url), allowLoopback });

  it("refuses a private address, and loopback outside the local trial", async () => {
    expect((await refusals("http://10.1.2.3/check", true))["config.url"]).toMatch(/private, link-local or reserved/);
    expect((await refusals("http://169.254.169.254/latest", true))["config.url"]).toMatch(/refused/);
    expect((await refusals(`${base}/done`, false))["config.url"]).toMatch(/loopback/);
    expect(await refusals(`${base}/done`, true)).toEqual({});
  });
});

describe("pushCompletion (POST /api/v1/completions)", () => {
  it("approves once, however many pushes race, keeping who pushed it", async () => {
    const id = await makeTask({ path: "/hang" });
    const now = new Date("2026-03-03T12:00:00Z");
    const push = () => pushCompletion({ db: database.db, projectId: "p", taskId: id, userId: "bob", done: true, reason: "Staked 10", apiKeyId: "key1", now });
    const results = await Promise.all([push(), push()]);
    expect(results.map((r) => r.ok && r.status).sort()).toEqual(["already", "approved"]);
    const rows = await completionsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "approved",
      verifiedBy: "project",
      evidence: { kind: "pushed", pushedBy: "key1", reason: "Staked 10", at: now.toISOString() },
    });
    expect(results.every((r) => r.ok && r.completionId === rows[0]!.id)).toBe(true);
    expect(await push()).toEqual({ ok: true, status: "already", completionId: rows[0]!.id });
    const paid = await database.db
      .select()
      .from(xpEvent)
      .where(and(eq(xpEvent.userId, "bob"), eq(xpEvent.sourceId, rows[0]!.id)));
    expect(paid).toHaveLength(1);
  });

  it("records nothing for done: false, and refuses another type, another project's task and an unknown member", async () => {
    const id = await makeTask();
    const base = { db: database.db, projectId: "p", taskId: id, userId: "cat", done: true, apiKeyId: "key1" };
    expect(await pushCompletion({ ...base, done: false })).toEqual({ ok: true, completionId: null, status: "not_done" });
    expect(await completionsOf(id)).toEqual([]);

    const visit = randomUUID();
    await database.db.insert(task).values({
      id: visit,
      projectId: "p",
      title: "Visit",
      type: "visit_link",
      verification: "none",
      xp: 5,
      config: { url: "https://example.com" },
      publishedAt: published,
    });
    expect(await pushCompletion({ ...base, taskId: visit })).toMatchObject({ ok: false, code: "conflict" });
    expect(await pushCompletion({ ...base, projectId: "q" })).toMatchObject({
      ok: false,
      code: "not_found",
      message: "This project has no task with this id.",
    });
    expect(await pushCompletion({ ...base, userId: "nobody" })).toMatchObject({ ok: false, code: "not_found", message: "No member has this id." });
    expect(await completionsOf(visit)).toEqual([]);
    expect(await completionsOf(id)).toEqual([]);
  });

  it("keeps the task's rules: a draft takes no push", async () => {
    const id = await makeTask({ publishedAt: null });
    expect(await pushCompletion({ db: database.db, projectId: "p", taskId: id, userId: "cat", done: true, apiKeyId: "key1" })).toEqual({
      ok: false,
      code: "not_met",
      message: "This task is not published yet.",
    });
  });
});
