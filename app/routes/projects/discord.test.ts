import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { runDiscordRoles } from "~/modules/community/role-grant-job.server";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import DiscordPage, { action, loader } from "./discord";

/** Project › Discord: only the owner and admins, the token never sent back, what the bot lacks in words. */

const GUILD = "300000000000000001";
const BOT = "400000000000000001";
const BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake-bot-token.abcdefghijklmnopqrstuvwxyz0123456789";
const PAGE = "http://localhost:3000/projects/p/discord";

let fakes: SocialFakes;
let services: Services;
const cookies = { owner: "", reviewer: "" };

beforeAll(async () => {
  fakes = await startSocialFakes();
  services = await createTestServices(fakes.env);
  for (const role of ["owner", "reviewer"] as const) ({ cookie: cookies[role] } = await signedInMember(services, role));
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "Lumen Swap" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "owner", role: "owner" },
    { projectId: "p", userId: "reviewer", role: "reviewer" },
  ]);
  fakes.discord.addGuild({
    id: GUILD,
    name: "Lumen",
    roles: [
      { id: "500000000000000001", name: "Questline", position: 5, permissions: "0" },
      { id: "500000000000000002", name: "Holder", position: 2, permissions: "0" },
      { id: "500000000000000003", name: "Managers", position: 4, permissions: String(1 << 28) },
    ],
  });
  fakes.discord.addBot({ token: BOT_TOKEN, userId: BOT, username: "QuestBot" });
});
afterAll(async () => {
  await services?.close();
  await fakes?.stop();
});

const post = (cookie: string, body: Record<string, string>) =>
  answer(() => action(routeArgs(services, new Request(PAGE, { method: "POST", headers: { cookie }, body: new URLSearchParams(body) }), { project: "p" })));
const load = (cookie: string) => answer(() => loader(routeArgs(services, new Request(PAGE, { headers: { cookie } }), { project: "p" })));
const statusOf = (thrown: unknown) => (thrown as { init?: { status?: number } }).init?.status ?? (thrown as Response).status;

function render(loaderData: unknown, actionData?: unknown) {
  const Page = DiscordPage as ComponentType<never>;
  const Stub = createRoutesStub([{ path: "/", Component: () => createElement(Page, { loaderData, actionData, params: {}, matches: [] } as never) }]);
  return renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
}

it("is the owner's and admins' only", async () => {
  expect(statusOf(await load(cookies.reviewer))).toBe(403);
  expect(statusOf(await post(cookies.reviewer, { intent: "save", token: BOT_TOKEN, guildId: GUILD }))).toBe(403);
});

it("refuses a token Discord does not know, and never sends a saved token back", async () => {
  const refused = await post(cookies.owner, { intent: "save", token: BOT_TOKEN.replace("fake", "nope"), guildId: GUILD });
  expect(statusOf(refused)).toBe(400);
  expect(JSON.stringify(refused)).toContain("Discord refused this token");

  const saved = (await post(cookies.owner, { intent: "save", token: BOT_TOKEN, guildId: GUILD })) as Response;
  expect(saved.status).toBe(302);
  const data = await load(cookies.owner);
  expect(JSON.stringify(data)).not.toContain(BOT_TOKEN);
  const html = render(data);
  expect(html).toContain("QuestBot");
  expect(html).toContain("The bot is not in the server");
  expect(html).toContain(`https://discord.com/oauth2/authorize?client_id=${BOT}&amp;scope=bot&amp;permissions=268435456`);
  expect(html).not.toContain(BOT_TOKEN);

  fakes.discord.joinBot(GUILD, BOT, ["500000000000000001"]);
  await post(cookies.owner, { intent: "check" });
  expect(render(await load(cookies.owner))).toContain("The bot lacks Manage Roles");
});

it("adds a rule from the server's roles and shows what Discord confirmed", async () => {
  const db = services.database.db;
  fakes.discord.joinBot(GUILD, BOT, ["500000000000000001", "500000000000000003"]);
  await db
    .insert(campaign)
    .values({ id: "c", projectId: "p", slug: "c", name: "Launch week", startsAt: new Date(0), endsAt: new Date(), publishedAt: new Date(0) });
  await db
    .insert(task)
    .values({ id: "t", projectId: "p", campaignId: "c", title: "t", type: "visit_link", xp: 1, verification: "none", publishedAt: new Date(0) });
  await db.insert(user).values({ id: "ann", email: "ann@example.com", name: "Ann" });
  await db.insert(account).values({ id: "a", userId: "ann", providerId: "discord", accountId: "600000000000000001" });
  await db.insert(completion).values({ id: "ct", taskId: "t", userId: "ann", period: "once", status: "approved" });
  fakes.discord.setMember(GUILD, "600000000000000001", { roles: [] });

  const before = render(await load(cookies.owner));
  expect(before).toContain("@Holder");
  expect(before).not.toContain("@@everyone");
  const added = (await post(cookies.owner, { intent: "add-rule", roleId: "500000000000000002", trigger: "campaign", campaignId: "c" })) as Response;
  expect(added.status).toBe(302);
  expect(render(await load(cookies.owner))).toContain("0 members hold it");

  await runDiscordRoles({ db, social: services.env.social });
  const after = render(await load(cookies.owner));
  expect(after).toContain("1 member holds it");
  expect(after).toContain("Discord confirmed: Holder granted");
});
