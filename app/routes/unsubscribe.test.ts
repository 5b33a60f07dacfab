import { createServer, type Server } from "node:http";
import express from "express";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { notification } from "#db/schema/reach";
import { routeArgs } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { notificationSettings } from "~/modules/notifications/preferences.server";
import { unsubscribeToken } from "~/modules/notifications/unsubscribe.server";
import type { Services } from "~/services/services.server";
import { sameOriginOnly } from "../../server/http";
import Unsubscribe, { action, loader } from "./unsubscribe";

let services: Services;
beforeAll(async () => {
  services = await createTestServices();
  await services.database.db.insert(user).values({ id: "ann", email: "ann@example.com", name: "Ann" });
  await services.database.db.insert(notification).values({ userId: "ann", kind: "reward", dedupe: "x", title: "You won", mail: "pending" });
});
afterAll(() => services?.close());

const tokenFor = (scope: "reward" | "all") => unsubscribeToken({ secret: services.env.AUTH_SECRET, userId: "ann", scope });
/** What a mail client sends for RFC 8058: no cookie, no Origin of ours. */
const oneClick = (token: string) =>
  new Request(`${services.env.APP_URL}/unsubscribe/${token}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
const status = (answer: unknown) => (answer as { init?: { status?: number } }).init?.status ?? 200;

describe("one-click unsubscribe", () => {
  it("shows a page with one button, changing nothing when opened", async () => {
    const page = await loader(routeArgs(services, new Request(`${services.env.APP_URL}/unsubscribe/${tokenFor("reward")}`), { token: tokenFor("reward") }));
    expect(page).toEqual({ what: "“Reward won and paid” e-mails" });
    const Stub = createRoutesStub([{ path: "/", Component: () => createElement(Unsubscribe, { loaderData: page, params: {}, matches: [] } as never) }]);
    const html = renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click"/>');
    expect(html.match(/<button/g)).toHaveLength(1);
    expect((await notificationSettings({ db: services.database.db, userId: "ann" })).kinds.find((k) => k.kind === "reward")?.email).toBe(true);
  });

  it("refuses a forged token and turns the kind's e-mail off on a one-click POST without a session", async () => {
    const forged = tokenFor("reward").replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(status(await action(routeArgs(services, oneClick(forged), { token: forged })))).toBe(404);
    expect((await notificationSettings({ db: services.database.db, userId: "ann" })).kinds.find((k) => k.kind === "reward")?.email).toBe(true);

    const token = tokenFor("reward");
    const done = await action(routeArgs(services, oneClick(token), { token }));
    expect(status(done)).toBe(200);
    expect(done).toMatchObject({ done: true });
    const settings = await notificationSettings({ db: services.database.db, userId: "ann" });
    expect(settings.kinds.find((k) => k.kind === "reward")?.email).toBe(false);
    expect(settings.kinds.find((k) => k.kind === "review")?.email).toBe(true);
    expect((await services.database.db.select().from(notification))[0]!.mail).toBe("none");
  });

  it("passes the same-origin check for exactly the unsubscribe link's POST", async () => {
    const app = express();
    app.use(sameOriginOnly(services.env));
    app.all("/{*path}", (_req, res) => void res.status(200).send("through"));
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const send = (path: string) =>
        fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
      expect((await send(`/unsubscribe/${tokenFor("all")}`)).status).toBe(200);
      expect((await send(`/unsubscribe/${tokenFor("all")}.data`)).status).toBe(403);
      expect((await send("/unsubscribe/x/y")).status).toBe(403);
      expect((await send("/notifications")).status).toBe(403);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
