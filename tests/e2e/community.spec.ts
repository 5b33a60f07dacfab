import type { Page } from "@playwright/test";
import { expect, expectConsoleError, test } from "./fixtures.ts";
import { localDateTime, uniqueSuffix } from "./quest-helpers.ts";
import { connectAccount, createProject, createTask, fakeAccount, serveAvatars, uniqueNumber } from "./social-helpers.ts";
import { SAME_ORIGIN } from "./fixtures.ts";
import { jobWait, SOCIAL_CONTROL_URL, SOCIAL_PORT } from "./urls.ts";

/**
 * Discord and Telegram end to end, against the fakes of Discord's REST API and Telegram's Bot API
 * and login page: a project's team adds its two bots and a role rule, a member connects both
 * accounts, completes a server, a role and a group task, and the worker gives them the role
 * through the project's bot; the team voids one completion and the role is taken back.
 */

const MANAGE_ROLES = String(1 << 28);
const TELEGRAM_CONTROL = `http://127.0.0.1:${SOCIAL_PORT + 6}/__control`;

async function control(url: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  expect(response.ok, `${init.method ?? "POST"} ${url}`).toBe(true);
  return (await response.json()) as unknown;
}
const telegram = (command: string, ...args: unknown[]) => control(`${TELEGRAM_CONTROL}/${command}`, { body: args });
const discordRoles = async (guildId: string, userId: string) =>
  ((await control(`${SOCIAL_CONTROL_URL}/discord/members/${guildId}/${userId}`, { method: "GET" })) as { roles: string[] | null }).roles;

/** Presses the task's Check and waits for its answer. */
async function check(member: Page, taskId: string) {
  await member.goto(`/tasks/${taskId}`);
  await member.getByRole("button", { name: "Check" }).click();
  await expect(member.getByText("Completed", { exact: true })).toBeVisible();
}

test("a member connects Discord and Telegram, completes the three tasks and is given the campaign's role; voiding one approval takes it back", async ({
  page,
  newPage,
  signIn,
  uniqueEmail,
}) => {
  test.setTimeout(jobWait(120_000));
  // A refused token answers 400 to the page's fetch, as every refused form does.
  expectConsoleError(/status of 400/);
  const owner = page;
  const member = await newPage();
  await serveAvatars(member.context());
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const suffix = uniqueSuffix();

  // Lumen's server on Discord: the Holder role members have, the Quester role the bot gives, the bot's own role above both.
  const guild = { id: uniqueNumber(), name: `Lumen ${suffix}` };
  const roles = { holder: uniqueNumber(), quester: uniqueNumber(), bot: uniqueNumber() };
  const bot = { token: `MTE${uniqueNumber()}.Gbot.${"x".repeat(40)}${suffix}`, userId: uniqueNumber(), username: `Lumen Bot ${suffix}` };
  await control(`${SOCIAL_CONTROL_URL}/discord/guilds`, {
    body: {
      ...guild,
      roles: [
        { id: roles.holder, name: "Holder", position: 1, permissions: "0" },
        { id: roles.quester, name: "Quester", position: 2, permissions: "0" },
        { id: roles.bot, name: "Lumen Bot", position: 3, permissions: MANAGE_ROLES },
      ],
    },
  });
  await control(`${SOCIAL_CONTROL_URL}/discord/bots`, { body: { ...bot, guildId: guild.id, roleIds: [roles.bot] } });
  // Its Telegram group, with the project's bot as an administrator.
  const chat = { id: -Number(`100${uniqueNumber().slice(-10)}`), username: `lumen_${suffix}`.slice(0, 32), title: `Lumen chat ${suffix}` };
  const tgBot = { id: Number(uniqueNumber().slice(-10)), username: `lumen_${suffix}_bot`.slice(0, 32) };
  const tgToken = `${tgBot.id}:AA${"t".repeat(30)}${suffix}`.replace(/[^A-Za-z0-9_:-]/g, "");
  await telegram("addBot", { token: tgToken, id: tgBot.id, username: tgBot.username });
  await telegram("addChat", { id: chat.id, type: "supergroup", title: chat.title, username: chat.username });
  await telegram("setBotInChat", chat.id, tgBot.id, { admin: true });

  const project = await createProject(owner, `Lumen ${suffix}`);
  const campaignName = `Community ${suffix}`;
  let campaignId = "";
  const taskIds: string[] = [];

  await test.step("the owner makes the campaign and its three tasks", async () => {
    const made = await owner.request.post(`/projects/${project}/campaigns/new`, {
      form: { name: campaignName, slug: `community-${suffix}`, description: "", startsAt: localDateTime(-60), endsAt: localDateTime(24 * 60), published: "on" },
      headers: SAME_ORIGIN,
      maxRedirects: 0,
    });
    expect(made.status()).toBe(302);
    await owner.goto(`/projects/${project}/tasks/new`);
    campaignId = (await owner.locator('select[name="campaignId"] option', { hasText: campaignName }).getAttribute("value"))!;
    const server = { guildId: guild.id, guildName: guild.name, inviteUrl: "https://discord.gg/lumen" };
    taskIds.push(await createTask(owner, project, { type: "discord_join", title: "Join the server", config: server, campaignId }));
    taskIds.push(
      await createTask(owner, project, {
        type: "discord_role",
        title: "Hold the Holder role",
        config: { ...server, roleId: roles.holder, roleName: "Holder" },
        campaignId,
      }),
    );
    taskIds.push(
      await createTask(owner, project, {
        type: "telegram_join",
        title: "Join the group",
        config: { chatId: `@${chat.username}`, chatTitle: chat.title, inviteUrl: `https://t.me/${chat.username}` },
        campaignId,
      }),
    );
  });

  await test.step("the owner adds the project's Discord bot and its role rule, then its Telegram bot", async () => {
    await owner.goto(`/projects/${project}/discord`);
    await owner.getByLabel("Bot token").fill("not a token");
    await owner.getByLabel("Server id").fill(guild.id);
    await owner.getByRole("button", { name: "Save bot" }).click();
    await expect(owner.getByText("Paste the bot's token from the Developer Portal")).toBeVisible();
    await owner.getByLabel("Bot token").fill(bot.token);
    await owner.getByRole("button", { name: "Save bot" }).click();
    await expect(owner.getByText("The bot can grant and remove your reward roles.")).toBeVisible();
    // The token never comes back to the page.
    expect(await owner.content()).not.toContain(bot.token);
    await owner.getByLabel("Role", { exact: true }).selectOption({ label: "@Quester" });
    await owner.getByLabel("Campaign").selectOption(campaignId);
    await owner.getByRole("button", { name: "Add rule" }).click();
    await expect(owner.getByText("Completing " + campaignName)).toBeVisible();

    await owner.goto(`/projects/${project}/telegram`);
    await owner.getByLabel("Bot token").fill(tgToken);
    await owner.getByLabel("Group or channel").fill(`https://t.me/${chat.username}`);
    await owner.getByRole("button", { name: "Save and check" }).click();
    await expect(owner.getByText(`@${tgBot.username} is an administrator of ${chat.title}`, { exact: false })).toBeVisible();
    expect(await owner.content()).not.toContain(tgToken);
  });

  const discordAccount = fakeAccount("discord", "Mira");
  const telegramAccount = { id: Number(uniqueNumber().slice(-10)), first_name: "Mira", username: `mira_${suffix}`.slice(0, 32) };

  await test.step("the member connects Discord and Telegram, and is in the server with the Holder role and in the group", async () => {
    await connectAccount(member, "discord", discordAccount);
    await control(`${SOCIAL_CONTROL_URL}/discord/members`, { body: { guildId: guild.id, userId: discordAccount.id, roles: [roles.holder] } });
    await telegram("nextLogin", telegramAccount);
    await telegram("setMembership", chat.id, telegramAccount.id, { status: "member" });
    await member.goto("/settings/connections/telegram");
    await member.getByRole("button", { name: "Connect Telegram" }).click();
    await member.getByRole("link", { name: /Log in as/ }).click();
    await expect(member.getByTestId("connected-handle")).toHaveText(`@${telegramAccount.username}`);
  });

  await test.step("the member completes the three tasks, and the worker gives the Quester role through the project's bot", async () => {
    for (const taskId of taskIds) await check(member, taskId);
    await member.goto(`/tasks/${taskIds[1]}`);
    await expect(member.getByText(`the Holder role in ${guild.name}`)).toBeVisible();
    await expect.poll(() => discordRoles(guild.id, discordAccount.id), { timeout: jobWait(30_000) }).toContain(roles.quester);
    await member.goto("/settings/connections/discord");
    await expect(member.getByText("Given")).toBeVisible();
    await expect(member.getByText(`Completed ${campaignName}`)).toBeVisible();
  });

  await test.step("the owner voids the Telegram approval; the member loses its XP and the role", async () => {
    await owner.goto(`/projects/${project}/campaigns/community-${suffix}/submissions?status=approved`);
    await owner
      .getByRole("row", { name: /Join the group/ })
      .getByRole("button", { name: /^Void the approval of/ })
      .click();
    const dialog = owner.getByRole("dialog");
    await dialog.getByLabel("Reason").fill("Left the group right after checking");
    await dialog.getByRole("button", { name: "Void" }).click();
    await expect(owner.getByText("Voided", { exact: true }).first()).toBeVisible();
    await expect.poll(() => discordRoles(guild.id, discordAccount.id), { timeout: jobWait(30_000) }).not.toContain(roles.quester);
    expect(await discordRoles(guild.id, discordAccount.id)).toContain(roles.holder);
    await member.goto("/settings/connections/discord");
    await expect(member.getByText("Taken back")).toBeVisible();
  });
});
