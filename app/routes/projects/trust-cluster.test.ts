import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { memberExclusion, trustCluster, trustClusterMember, trustScore } from "#db/schema/trust";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import TrustCluster, { loader as clusterLoader } from "./trust-cluster";
import ProjectTrust, { action as trustAction, loader as trustLoader } from "./trust";

let services: Services;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  services = await createTestServices();
  for (const id of ["own", "rev", "stranger", "a", "b", "c"]) cookies[id] = (await signedInMember(services, id)).cookie;
  const db = services.database.db;
  await db.insert(project).values([
    { id: "p", slug: "p", name: "P" },
    { id: "q", slug: "q", name: "Q" },
  ]);
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
  const published = { verification: "none" as const, type: "visit_link" as const, xp: 10, publishedAt: new Date("2026-01-01") };
  await db.insert(task).values([
    { id: "tp", projectId: "p", title: "Visit P", ...published },
    { id: "tq", projectId: "q", title: "Visit Q", ...published },
  ]);
  await db.insert(completion).values([
    { id: "1", taskId: "tp", userId: "a", period: "once", status: "approved" },
    { id: "2", taskId: "tp", userId: "b", period: "once", status: "approved" },
    { id: "3", taskId: "tq", userId: "c", period: "once", status: "approved" },
  ]);
  await db.insert(trustCluster).values([
    { id: "K", kind: "funder", key: "0xf", size: 3, summary: "Funded by the same address as 2 other members", evidence: { funder: "0xf" } },
    { id: "L", kind: "network", key: "n", size: 1, summary: "One network", evidence: {} },
  ]);
  await db.insert(trustClusterMember).values([
    { clusterId: "K", userId: "a" },
    { clusterId: "K", userId: "b" },
    { clusterId: "K", userId: "c" },
    { clusterId: "L", userId: "c" },
  ]);
  await db.insert(trustScore).values(
    ["a", "b", "c"].map((userId) => ({
      userId,
      score: 10,
      flagged: true,
      reasons: [{ code: "funder_cluster", points: -50, words: "Funded by one address", clusterId: "K" }],
    })),
  );
});
afterAll(() => services.close());

const url = (path: string) => `http://localhost:3000/projects/p/trust${path}`;
const get = (path: string, cookie?: string) => new Request(url(path), { headers: cookie ? { cookie } : {} });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(url(path), { method: "POST", headers: { cookie }, body: new URLSearchParams(fields) });
const statusOf = (answered: unknown) => (answered instanceof Response ? answered.status : (answered as { init: { status: number } | null }).init?.status);
/** The page's markup as the server renders it, from its loader's data. */
function markup(Page: ComponentType<never>, loaderData: unknown) {
  const Stub = createRoutesStub([{ path: "/", Component: () => createElement(Page, { loaderData, params: {}, matches: [] } as never) }]);
  return renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
}

const exclude = { intent: "exclude", target: "project", clusterId: "K", reason: "One funder behind every wallet" };

describe("the team's trust pages", () => {
  it("refuses a reviewer the exclude action (403) and excludes no one, while showing them the page without forms", async () => {
    expect(statusOf(await answer(() => trustAction(routeArgs(services, post("", cookies.rev!, exclude), { project: "p" }))))).toBe(403);
    expect(await services.database.db.select().from(memberExclusion)).toEqual([]);
    const page = await trustLoader(routeArgs(services, get("?tab=participants&filter=flagged", cookies.rev), { project: "p" }));
    expect(page.canAct).toBe(false);
    expect(page.targets).toEqual([]);
    expect(page.participants?.rows.map((r) => r.userId)).toEqual(["a", "b"]);
  });

  it("answers a member outside the team 403 and sends a signed-out visitor to sign in", async () => {
    expect(statusOf(await answer(() => trustLoader(routeArgs(services, get("", cookies.stranger), { project: "p" }))))).toBe(403);
    expect(statusOf(await answer(() => clusterLoader(routeArgs(services, get("/clusters/K", cookies.a), { project: "p", cluster: "K" }))))).toBe(403);
    const visitor = await answer(() => trustLoader(routeArgs(services, get(""), { project: "p" })));
    expect(statusOf(visitor)).toBe(302);
    expect((visitor as Response).headers.get("location")).toMatch(/^\/login/);
  });

  it("lists only this project's participants in a cluster, counts the others, and hides a cluster of other projects' members", async () => {
    const view = await clusterLoader(routeArgs(services, get("/clusters/K", cookies.own), { project: "p", cluster: "K" }));
    expect(view.members.map((m) => m.userId)).toEqual(["a", "b"]);
    expect(view.outside).toBe(1);
    expect(view.canAct).toBe(true);
    expect(JSON.stringify(view)).not.toContain('"c"');
    expect(statusOf(await answer(() => clusterLoader(routeArgs(services, get("/clusters/L", cookies.own), { project: "p", cluster: "L" }))))).toBe(404);
  });

  it("shows an owner the Exclude forms and a reviewer none, on every section", async () => {
    const cluster = (cookie: string) => clusterLoader(routeArgs(services, get("/clusters/K", cookie), { project: "p", cluster: "K" }));
    const owners = markup(TrustCluster, await cluster(cookies.own!));
    // The cluster view's forms post to the Trust page's one action.
    expect(owners).toContain('action="/projects/p/trust"');
    expect(owners).toContain("Exclude all 2");
    expect(owners).toContain("and 1 member outside this project");
    expect(markup(TrustCluster, await cluster(cookies.rev!))).not.toContain('name="intent"');
    const trust = (query: string, cookie: string) => trustLoader(routeArgs(services, get(query, cookie), { project: "p" }));
    expect(markup(ProjectTrust, await trust("?filter=all", cookies.own!))).toContain('name="intent" value="exclude"');
    expect(markup(ProjectTrust, await trust("?filter=all", cookies.rev!))).not.toContain('name="intent"');
    expect(markup(ProjectTrust, await trust("?filter=excluded", cookies.rev!))).toContain("No one is excluded");
    expect(markup(ProjectTrust, await trust("?tab=clusters", cookies.rev!))).toContain("2 of 3 members take part here");
    expect(markup(ProjectTrust, await trust("?tab=audit", cookies.rev!))).toContain("Nothing in the audit log yet");
  });

  it("refuses an owner's exclusion without a reason (400) or from a pool that is not open (409), on the form", async () => {
    const refused = await answer(() => trustAction(routeArgs(services, post("", cookies.own!, { ...exclude, reason: " x " }), { project: "p" })));
    expect(statusOf(refused)).toBe(400);
    expect((refused as { data: { errors: Record<string, string> } }).data.errors.reason).toMatch(/at least 3 characters/);
    const closed = await answer(() => trustAction(routeArgs(services, post("", cookies.own!, { ...exclude, target: "pool:gone" }), { project: "p" })));
    expect(statusOf(closed)).toBe(409);
    expect((closed as { data: { errors: Record<string, string> } }).data.errors.form).toMatch(/no longer open/);
  });
});
