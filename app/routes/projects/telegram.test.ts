import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { telegramFakeEnv } from "#tests/fakes/telegram/endpoints";
import { startTelegramFake, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";
import TelegramPage, { action, loader } from "./telegram";

let services: Services;
let fake: TelegramFake;
const cookies = { owner: "", reviewer: "" };
const bot = { token: "8100000001:AAPixelBotTokenPixelBotTokenPixel0001", id: 8_100_000_001, username: "PixelCommunityBot" };

beforeAll(async () => {
  fake = await startTelegramFake({ bots: [bot] });
  fake.state.addChat({ id: -1_001_111_111_111, title: "Pixel Chat", type: "supergroup", username: "pixelchat" });
  services = await createTestServices(telegramFakeEnv(fake.origin));
  for (const role of ["owner", "reviewer"] as const) ({ cookie: cookies[role] } = await signedInMember(services, role));
  await services.database.db.insert(project).values({ id: "p", slug: "pixel", name: "Pixel" });
  await services.database.db.insert(projectMember).values([
    { projectId: "p", userId: "owner", role: "owner" },
    { projectId: "p", userId: "reviewer", role: "reviewer" },
  ]);
});
afterAll(async () => {
  await services?.close();
  await fake?.stop();
});

const PAGE = "http://localhost:3000/projects/pixel/telegram";
const post = (cookie: string, body: Record<string, string>) =>
  answer(() => action(routeArgs(services, new Request(PAGE, { method: "POST", headers: { cookie }, body: new URLSearchParams(body) }), { project: "pixel" })));
const load = (cookie: string) => answer(() => loader(routeArgs(services, new Request(PAGE, { headers: { cookie } }), { project: "pixel" })));
const statusOf = (thrown: unknown) => (thrown as { init?: { status?: number } }).init?.status ?? (thrown as Response).status;

describe("a project's Telegram page", () => {
  it("is the owner's and admins': a reviewer may neither see nor change it", async () => {
    expect(statusOf(await load(cookies.reviewer))).toBe(403);
    expect(statusOf(await post(cookies.reviewer, { intent: "save", token: bot.token, chat: "@pixelchat" }))).toBe(403);
  });

  it("saves the bot, never sends its token back, and says in words what the bot lacks", async () => {
    const saved = (await post(cookies.owner, { intent: "save", token: bot.token, chat: "@pixelchat" })) as Response;
    expect(saved.status).toBe(302);
    const data = (await load(cookies.owner)) as Awaited<ReturnType<typeof loader>>;
    expect(JSON.stringify(data)).not.toContain(bot.token.split(":")[1]!);
    expect(data.bot).toMatchObject({ botUsername: "PixelCommunityBot", chatTitle: "Pixel Chat" });
    const Stub = createRoutesStub([{ path: "/", Component: () => createElement(TelegramPage, { loaderData: data, params: {}, matches: [] } as never) }]);
    const html = renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
    expect(html).toContain("Add @PixelCommunityBot to Pixel Chat as an administrator");
    expect(html).toContain("Check again");
    expect(html).not.toContain(bot.token.split(":")[1]!);
  });
});
