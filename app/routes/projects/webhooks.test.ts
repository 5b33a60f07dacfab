import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { newWebhookSecret, signedHeaders } from "~/lib/webhook-signature.server";
import { action as receive } from "../dev.webhooks-receive";
import { loader as devPage } from "../dev.webhooks";
import EndpointPage, { action as endpointAction, loader as endpointLoader } from "./webhooks-endpoint";
import WebhooksPage, { action, loader } from "./webhooks";

let services: Services;
const cookies: Record<"owner" | "admin" | "reviewer" | "member", string> = { owner: "", admin: "", reviewer: "", member: "" };
beforeAll(async () => {
  services = await createTestServices();
  for (const role of ["owner", "admin", "reviewer", "member"] as const) ({ cookie: cookies[role] } = await signedInMember(services, role));
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "owner", role: "owner" },
    { projectId: "p", userId: "admin", role: "admin" },
    { projectId: "p", userId: "reviewer", role: "reviewer" },
  ]);
});
afterAll(() => services.close());

const URL_BASE = "http://localhost:3000/projects/p/webhooks";
const post = (
  cookie: string,
  body: URLSearchParams,
  path = URL_BASE,
  params: Record<string, string> = { project: "p" },
  handler: (args: never) => Promise<unknown> = action,
) => answer(() => handler(routeArgs(services, new Request(path, { method: "POST", headers: { cookie }, body }), params)));
const addForm = (url: string) => {
  const form = new URLSearchParams({ url, description: "bot" });
  form.append("eventTypes", "completion.approved");
  form.append("eventTypes", "reward.paid");
  return form;
};
/** A page's markup as the server renders it, from its loader's (and action's) data. */
function render(Page: ComponentType<never>, loaderData: unknown, actionData?: unknown) {
  const Stub = createRoutesStub([{ path: "/", Component: () => createElement(Page, { loaderData, actionData, params: {}, matches: [] } as never) }]);
  return renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
}
const statusOf = (thrown: unknown) => (thrown as { init?: { status?: number } }).init?.status ?? (thrown as Response).status;

describe("the webhooks pages", () => {
  it("are for owners and admins only: reviewers and members are refused, reading and writing", async () => {
    for (const role of ["reviewer", "member"] as const) {
      const read = await answer(() => loader(routeArgs(services, new Request(URL_BASE, { headers: { cookie: cookies[role] } }), { project: "p" })));
      expect(statusOf(read), role).toBe(403);
      expect(statusOf(await post(cookies[role], addForm("http://127.0.0.1:9/x"))), role).toBe(403);
    }
    for (const role of ["owner", "admin"] as const) {
      const page = await loader(routeArgs(services, new Request(URL_BASE, { headers: { cookie: cookies[role] } }), { project: "p" }));
      expect(page.project.slug).toBe("p");
    }
  });

  it("show the secret once, in the create answer, and never in a loader's data; keep the form's values on a refusal", async () => {
    const refused = (await post(cookies.owner, addForm("http://10.0.0.1/hook"))) as {
      data: { errors: Record<string, string>; values: { url: string } };
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.errors.url).toContain("private");
    expect(refused.data.values.url).toBe("http://10.0.0.1/hook");

    const created = (await post(cookies.admin, addForm("http://127.0.0.1:9/hook"))) as { data: { created: { id: string; secret: string } } };
    const { id, secret } = created.data.created;
    expect(secret).toMatch(/^whsec_/);
    const list = await loader(routeArgs(services, new Request(URL_BASE, { headers: { cookie: cookies.owner } }), { project: "p" }));
    expect(list.endpoints.map((e) => e.id)).toEqual([id]);
    const detail = await endpointLoader(
      routeArgs(services, new Request(`${URL_BASE}/${id}`, { headers: { cookie: cookies.owner } }), { project: "p", endpoint: id }),
    );
    for (const shown of [list, detail]) expect(JSON.stringify(shown)).not.toMatch(/whsec_|gcm1:/);
    const listPage = render(WebhooksPage, list);
    expect(listPage).toContain("http://127.0.0.1:9/hook");
    expect(listPage).toContain("Add endpoint");
    expect(listPage).toContain("standardwebhooks");
    expect(listPage).not.toContain(secret);
    const shownOnce = render(WebhooksPage, list, created.data);
    expect(shownOnce).toContain(secret);
    expect(render(EndpointPage, detail)).toContain("Delivery log");

    // The endpoint's page: a reviewer may not act on it; the owner sends a test event.
    const endpointUrl = `${URL_BASE}/${id}`;
    const params = { project: "p", endpoint: id };
    expect(statusOf(await post(cookies.reviewer, new URLSearchParams({ intent: "test" }), endpointUrl, params, endpointAction))).toBe(403);
    const tested = await post(cookies.owner, new URLSearchParams({ intent: "test" }), endpointUrl, params, endpointAction);
    expect((tested as Response).status).toBe(302);
    const rotated = (await post(cookies.owner, new URLSearchParams({ intent: "rotate" }), endpointUrl, params, endpointAction)) as { data: { secret: string } };
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(secret);

    // The local trial's receiver checks a message against the endpoint's secrets (both, during the overlap), and lists it.
    const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: {} });
    const signed = (secrets: string[], msg: string) => signedHeaders({ secrets, id: msg, timestamp: Math.floor(Date.now() / 1000), body });
    const deliver = (headers: Record<string, string>) =>
      receive(
        routeArgs(services, new Request(`http://localhost:3000/dev/webhooks/receive/${id}`, { method: "POST", headers, body }), { endpoint: id }),
      ) as Promise<Response>;
    expect((await deliver(signed([secret], "msg_old"))).status).toBe(204);
    expect((await deliver(signed([rotated.data.secret], "msg_new"))).status).toBe(204);
    expect((await deliver(signed([newWebhookSecret()], "msg_forged"))).status).toBe(400);
    const page = devPage(routeArgs(services, new Request("http://localhost:3000/dev/webhooks"))) as {
      received: { webhookId: string; signatureValid: boolean }[];
    };
    expect(page.received.map((r) => [r.webhookId, r.signatureValid])).toEqual([
      ["msg_forged", false],
      ["msg_new", true],
      ["msg_old", true],
    ]);
  });

  it("keep the dev receiver and its page out of public mode", async () => {
    const publicServices: Services = { ...services, env: { ...services.env, isPublic: true } };
    const request = new Request("https://quest.example/dev/webhooks/receive/ep_x", { method: "POST", body: "{}" });
    expect(statusOf(await answer(() => receive(routeArgs(publicServices, request, { endpoint: "ep_x" }))))).toBe(404);
    expect(statusOf(await answer(async () => devPage(routeArgs(publicServices, new Request("https://quest.example/dev/webhooks")))))).toBe(404);
    const local = (await receive(
      routeArgs(services, new Request("http://localhost:3000/dev/webhooks/receive/ep_x", { method: "POST", body: "{}" }), { endpoint: "ep_x" }),
    )) as Response;
    expect(local.status).toBe(404);
  });
});
