import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, crusade, task } from "#db/schema/quests";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./tasks";

const DAY = 86_400_000;
const now = Date.now();
const at = (days: number) => new Date(now + days * DAY);
let services: Services;
let reviewer: string;

beforeAll(async () => {
  services = await createTestServices();
  ({ cookie: reviewer } = await signedInMember(services, "rev"));
  const db = services.database.db;
  await db.insert(user).values(["m1", "m2"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values({ projectId: "p", userId: "rev", role: "reviewer" });
  await db.insert(campaign).values([
    { id: "c-live", projectId: "p", slug: "season", name: "Season", startsAt: at(-1), endsAt: at(5), publishedAt: at(-2) },
    { id: "c-past", projectId: "p", slug: "past", name: "Past", startsAt: at(-10), endsAt: at(-5), publishedAt: at(-11) },
  ]);
  await db.insert(crusade).values({ id: "k-draft", projectId: "p", slug: "quest", name: "Quest" });
  await db.insert(airdrop).values({
    id: "a",
    projectId: "p",
    slug: "drop",
    name: "Drop",
    asset: "QUEST:31337",
    rule: "pro_rata",
    total: 1n,
    startsAt: at(-1),
    endsAt: at(9),
    claimDeadline: at(40),
    publishedAt: at(-2),
  });
  const base = {
    projectId: "p",
    type: "visit_link" as const,
    verification: "none" as const,
    config: { url: "https://example.com" },
    xp: 10,
    publishedAt: at(-2),
  };
  await db.insert(task).values([
    { ...base, id: "t1", title: "Follow 100% of us", campaignId: "c-live", createdAt: at(-6) },
    { ...base, id: "t2", title: "Old visit", campaignId: "c-past", createdAt: at(-5) },
    { ...base, id: "t3", title: "Crusade step", crusadeId: "k-draft", crusadePosition: 1, createdAt: at(-4) },
    { ...base, id: "t4", title: "Unpublished", publishedAt: null, createdAt: at(-3) },
    { ...base, id: "t5", title: "Later", startsAt: at(2), createdAt: at(-2) },
    { ...base, id: "t6", title: "Earn points", airdropId: "a", xp: 25, createdAt: at(-1) },
  ]);
  await db.insert(completion).values([
    { id: "x1", taskId: "t1", userId: "m1", period: "once", status: "approved" },
    { id: "x2", taskId: "t1", userId: "m2", period: "once", status: "pending" },
  ]);
});
afterAll(() => services.close());

const load = async (query = "", cookie?: string) => {
  const request = new Request(`http://localhost:3000/projects/p/tasks${query}`, { headers: cookie ? { cookie } : {} });
  const page = await answer(() => loader(routeArgs(services, request, { project: "p" })));
  if (page instanceof Response) throw new Error(`answered ${page.status}`);
  return page;
};
const titles = (page: Awaited<ReturnType<typeof load>>) => page.rows.map((row) => `${row.title}: ${row.status}`);

describe("a project's Tasks page", () => {
  it("shows a visitor every published task with what holds it and its status, newest first, and no drafts", async () => {
    const page = await load();
    expect(titles(page)).toEqual(["Earn points: live", "Later: scheduled", "Old visit: ended", "Follow 100% of us: live"]);
    expect(page.rows.find((row) => row.id === "t1")).toMatchObject({
      container: { kind: "campaign", name: "Season", slug: "season" },
      typeLabel: "Visit a link",
      approved: 1,
      pending: 0,
    });
    expect(page.rows[0]!.container).toEqual({ kind: "airdrop", name: "Drop", slug: "drop" });
    expect(page).toMatchObject({ showDrafts: false, showPending: false, canManage: false });
    // A visitor cannot ask for drafts: the filter is ignored.
    expect(titles(await load("?status=draft"))).toHaveLength(4);
  });

  it("shows the team its drafts (a draft task, a task in a draft crusade) and filters by container, status and title", async () => {
    const page = await load("", reviewer);
    expect(page).toMatchObject({ showDrafts: true, showPending: true, canManage: false });
    expect(page.rows.find((row) => row.id === "t1")).toMatchObject({ approved: 1, pending: 1 });
    expect(titles(await load("?status=draft", reviewer))).toEqual(["Unpublished: draft", "Crusade step: draft"]);
    expect(titles(await load("?in=standalone", reviewer))).toEqual(["Later: scheduled", "Unpublished: draft"]);
    expect(titles(await load("?in=campaign&status=ended", reviewer))).toEqual(["Old visit: ended"]);
    expect(titles(await load("?q=100%25", reviewer))).toEqual(["Follow 100% of us: live"]);
    expect(titles(await load("?q=%25", reviewer))).toEqual(["Follow 100% of us: live"]);
    expect(await load("?in=nonsense&status=nope", reviewer)).toMatchObject({ filters: { container: "", status: "" } });
  });

  it("filters before it cuts the list at 500 rows: an old draft behind 500 newer tasks is still found", async () => {
    const db = services.database.db;
    await db.insert(project).values({ id: "big", slug: "big", name: "Big" });
    await db.insert(projectMember).values({ projectId: "big", userId: "rev", role: "reviewer" });
    const base = { projectId: "big", type: "visit_link" as const, verification: "none" as const, config: { url: "https://example.com" }, xp: 1 };
    await db.insert(task).values({ ...base, id: "big-draft", title: "The old draft", createdAt: at(-30) });
    await db
      .insert(task)
      .values(Array.from({ length: 500 }, (_, i) => ({ ...base, id: `big-${i}`, title: `Task ${i}`, publishedAt: at(-2), createdAt: at(-20 + i / 100) })));
    const request = new Request("http://localhost:3000/projects/big/tasks?status=draft", { headers: { cookie: reviewer } });
    const page = await loader(routeArgs(services, request, { project: "big" }));
    expect(page.rows.map((row) => row.title)).toEqual(["The old draft"]);
  });

  it("answers 404 for a project that does not exist", async () => {
    const request = new Request("http://localhost:3000/projects/nope/tasks");
    const page = (await answer(() => loader(routeArgs(services, request, { project: "nope" })))) as { init?: { status?: number }; status?: number };
    expect(page.init?.status ?? page.status).toBe(404);
  });
});
