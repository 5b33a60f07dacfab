import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { projectSigningSecretOf } from "~/modules/tasks/signing-secret.server";
import { action as tryAction } from "./api-check-try";
import { action as secretAction } from "./api-check-secret";
import { loader as newTaskLoader } from "./new";

let services: Services;
let server: Server;
let url: string;
const cookies: Record<string, string> = {};
/** Each request the project's server received: its body and whether our signature checked out. */
const received: { body: Record<string, unknown>; verified: boolean }[] = [];

beforeAll(async () => {
  services = await createTestServices();
  for (const id of ["own", "rev", "out"]) cookies[id] = (await signedInMember(services, id)).cookie;
  await services.database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await services.database.db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      void projectSigningSecretOf({ db: services.database.db, projectId: "p", tokenKey: services.env.social.tokenKey }).then((secret) => {
        let verified = true;
        try {
          new Webhook(secret!).verify(text, req.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        received.push({ body: JSON.parse(text) as Record<string, unknown>, verified });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ done: false, reason: "No stake yet" }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await services.close();
});

/** A POST as the browser's fetcher sends it; the answer's status and data. */
async function post(call: (args: never) => Promise<unknown>, path: string, who: string, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const request = new Request(`http://localhost:3000/projects/p/api-check/${path}`, { method: "POST", body, headers: { cookie: cookies[who]! } });
  const answered = (await answer(() => call(routeArgs(services, request, { project: "p" })))) as unknown as { data: unknown; init: ResponseInit | null };
  return { status: answered.init?.status ?? 200, data: answered.data };
}

describe("Try it", () => {
  it("sends an owner's signed test request to the URL typed and shows the answer", async () => {
    const tried = await post(tryAction, "try", "own", { url, title: "Stake", taskId: "" });
    expect(tried).toMatchObject({ status: 200, data: { reply: { ok: true, status: 200, answer: { done: false, reason: "No stake yet" } } } });
    expect(received.at(-1)).toMatchObject({
      verified: true,
      body: { type: "api_check", test: true, task: { id: null, title: "Stake" }, member: { id: "own", wallets: [] } },
    });
  });

  it("says what was wrong when nothing can be sent", async () => {
    const tried = await post(tryAction, "try", "own", { url: "http://10.0.0.1/check", title: "", taskId: "" });
    expect(tried).toMatchObject({ status: 200, data: { reply: { ok: false, problem: "refused" } } });
  });

  it("is refused to a reviewer and to a member outside the team, sending nothing", async () => {
    const before = received.length;
    expect((await post(tryAction, "try", "rev", { url })).status).toBe(403);
    expect((await post(tryAction, "try", "out", { url })).status).toBe(403);
    expect(received.length).toBe(before);
  });
});

describe("the signing secret", () => {
  it("is revealed and rotated by an owner's POST only, never in the task form's data", async () => {
    const revealed = await post(secretAction, "secret", "own", { intent: "reveal" });
    const secret = (revealed.data as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    expect(await post(secretAction, "secret", "own", { intent: "reveal" })).toMatchObject({ data: { secret, rotated: false } });

    const request = new Request("http://localhost:3000/projects/p/tasks/new", { headers: { cookie: cookies.own! } });
    const page = await newTaskLoader(routeArgs(services, request, { project: "p" }));
    expect(page.apiCheck).toEqual({ tryAction: "/projects/p/api-check/try", secretAction: "/projects/p/api-check/secret", taskId: null });
    expect(JSON.stringify(page)).not.toContain(secret.slice(6));

    const rotated = await post(secretAction, "secret", "own", { intent: "rotate" });
    expect(rotated.data).toMatchObject({ rotated: true });
    expect((rotated.data as { secret: string }).secret).not.toBe(secret);
    expect((await post(secretAction, "secret", "rev", { intent: "reveal" })).status).toBe(403);
  });
});
