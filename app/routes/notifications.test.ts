import { eq } from "drizzle-orm";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { notification, projectFollow } from "#db/schema/reach";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { notificationSettings } from "~/modules/notifications/preferences.server";
import type { Services } from "~/services/services.server";
import { loader as layoutLoader } from "./app-layout";
import Notifications, { action, loader } from "./notifications";
import { action as followAction, loader as projectLoader } from "./projects/show";
import NotificationSettings, { action as settingsAction, loader as settingsLoader } from "./settings/notifications";

let services: Services;
const cookies: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  services = await createTestServices();
  for (const id of ["ann", "bob"]) cookies[id] = (await signedInMember(services, id)).cookie;
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "pixel", name: "Pixel" });
  const rows = await db
    .insert(notification)
    .values([
      { userId: "ann", kind: "review", dedupe: "a1", title: "Approved: Post", body: "Yes", link: "/tasks/t" },
      { userId: "ann", kind: "reward", dedupe: "a2", title: "You won 5 XP", link: "/rewards" },
      { userId: "ann", kind: "deposit", dedupe: "a3", title: "Hidden", inInbox: false },
      { userId: "bob", kind: "review", dedupe: "b1", title: "Bob's", link: "/tasks/u" },
    ])
    .returning();
  for (const row of rows) ids[row.dedupe] = row.id;
});
afterAll(() => services?.close());

const get = (path: string, who?: string) => new Request(`${services.env.APP_URL}${path}`, { headers: who ? { cookie: cookies[who]! } : {} });
const post = (path: string, who: string | null, body: Record<string, string>) =>
  new Request(`${services.env.APP_URL}${path}`, {
    method: "POST",
    headers: { ...(who ? { cookie: cookies[who]! } : {}), origin: services.env.APP_URL, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
/** The page's markup as the server renders it, from its loader's data. */
function markup(Page: ComponentType<never>, loaderData: unknown) {
  const Stub = createRoutesStub([{ path: "/", Component: () => createElement(Page, { loaderData, params: {}, matches: [] } as never) }]);
  return renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
}
const readAt = async (id: number) => (await services.database.db.select().from(notification).where(eq(notification.id, id)))[0]!.readAt;

describe("the inbox", () => {
  it("lists the member's own inbox notifications, newest first, and the bell counts the unread", async () => {
    const page = await loader(routeArgs(services, get("/notifications", "ann")));
    expect(page.items.map((i) => i.title)).toEqual(["You won 5 XP", "Approved: Post"]);
    const html = markup(Notifications, page);
    expect(html.match(/>Mark read</g)).toHaveLength(2);
    expect(html).toContain("Mark all read");
    expect(markup(Notifications, { items: [], next: null, paged: false })).toContain("Nothing yet");
    expect((await layoutLoader(routeArgs(services, get("/notifications", "ann")))).unread).toBe(2);
    expect((await layoutLoader(routeArgs(services, get("/projects")))).unread).toBe(0);
  });

  it("opens a notification (marks it read, goes to its thing) and refuses another member's", async () => {
    const opened = (await action(routeArgs(services, post("/notifications", "ann", { intent: "open", id: String(ids.a1) })))) as Response;
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/tasks/t");
    expect(await readAt(ids.a1!)).not.toBeNull();
    const refused = (await answer(() => action(routeArgs(services, post("/notifications", "ann", { intent: "read", id: String(ids.b1) }))))) as {
      init: { status: number };
    };
    expect(refused.init.status).toBe(404);
    expect(await readAt(ids.b1!)).toBeNull();
  });

  it("marks all of the member's own read, and pages by cursor", async () => {
    await action(routeArgs(services, post("/notifications", "ann", { intent: "all" })));
    expect(await readAt(ids.a2!)).not.toBeNull();
    expect(await readAt(ids.b1!)).toBeNull();
    expect((await layoutLoader(routeArgs(services, get("/notifications", "ann")))).unread).toBe(0);
    const older = await loader(routeArgs(services, get(`/notifications?before=${ids.a2}`, "ann")));
    expect(older.items.map((i) => i.title)).toEqual(["Approved: Post"]);
    expect(older.paged).toBe(true);
  });
});

describe("Settings › Notifications", () => {
  it("saves the whole table as a form without JavaScript posts it (unchecked boxes absent)", async () => {
    expect((await settingsLoader(routeArgs(services, get("/settings/notifications", "bob")))).kinds.find((k) => k.kind === "review")).toMatchObject({
      inbox: true,
      email: true,
    });
    const saved = (await settingsAction(
      routeArgs(services, post("/settings/notifications", "bob", { "inbox:review": "on", "email:raffle": "on", digest: "on" })),
    )) as Response;
    expect(saved.status).toBe(302);
    const settings = await notificationSettings({ db: services.database.db, userId: "bob" });
    expect(settings.digest).toBe(true);
    const html = markup(NotificationSettings, { ...settings, hasEmail: true });
    expect(html).toMatch(/<input type="checkbox"[^>]* name="inbox:review" checked=""\/>/);
    expect(html).toMatch(/<input type="checkbox"[^>]* name="email:review"\/>/);
    expect(settings.kinds.find((k) => k.kind === "review")).toEqual({ kind: "review", inbox: true, email: false });
    expect(settings.kinds.find((k) => k.kind === "raffle")).toEqual({ kind: "raffle", inbox: false, email: true });
  });
});

describe("Follow on a project's page", () => {
  it("follows and unfollows for a member, counts followers, and sends a visitor to sign in", async () => {
    const visitor = (await answer(() =>
      followAction(routeArgs(services, post("/projects/pixel", null, { intent: "follow" }), { project: "pixel" })),
    )) as Response;
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?redirectTo=%2Fprojects%2Fpixel");
    await followAction(routeArgs(services, post("/projects/pixel", "ann", { intent: "follow" }), { project: "pixel" }));
    await followAction(routeArgs(services, post("/projects/pixel", "ann", { intent: "follow" }), { project: "pixel" }));
    expect((await projectLoader(routeArgs(services, get("/projects/pixel", "ann"), { project: "pixel" }))).follow).toEqual({ followers: 1, following: true });
    expect((await projectLoader(routeArgs(services, get("/projects/pixel"), { project: "pixel" }))).follow).toEqual({ followers: 1, following: false });
    await followAction(routeArgs(services, post("/projects/pixel", "ann", { intent: "unfollow" }), { project: "pixel" }));
    expect(await services.database.db.select().from(projectFollow)).toEqual([]);
    // A flood of toggles stops at 30 an hour: the 31st changes nothing.
    for (let i = 4; i <= 30; i++) await followAction(routeArgs(services, post("/projects/pixel", "ann", { intent: "unfollow" }), { project: "pixel" }));
    await followAction(routeArgs(services, post("/projects/pixel", "ann", { intent: "follow" }), { project: "pixel" }));
    expect(await services.database.db.select().from(projectFollow)).toEqual([]);
  });
});
