import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { projectTelegram } from "#db/schema/community";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { FAKE_PLATFORM_BOT, telegramFakeEnv } from "#tests/fakes/telegram/endpoints";
import { startTelegramFake, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";
import { providerRequest } from "~/modules/social/checks/http.server";
import { getChatMember, getMe, sendMessage, telegramBot } from "~/modules/social/checks/telegram.server";
import { socialConfigFromEnv, type SocialConfig } from "~/modules/social/social-config.server";
import { z } from "zod";
import { task } from "#db/schema/quests";
import { checkSocialTask } from "~/modules/social/social-tasks.server";
import { checkTelegramJoin } from "./telegram-join.server";
import { recheckTelegramBot, removeTelegramBot, saveTelegramBot } from "./telegram-bot.server";

let database: Database;
let fake: TelegramFake;
let social: SocialConfig;
const now = new Date("2026-06-01T12:00:00Z");
const projectBot = { token: "8000000001:AAProjectBotTokenProjectBotToken00001", id: 8_000_000_001, username: "OrbitCommunityBot" };
const GROUP = -1_001_234_567_890;
const CHANNEL = -1_009_876_543_210;
const member = { id: 600_000_001, first_name: "Mia", username: "mia_tg" };

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startTelegramFake();
  social = socialConfigFromEnv(telegramFakeEnv(fake.origin), { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-tg-bot-")) });
  await database.db.insert(user).values(["own", "mia"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await database.db.insert(project).values({ id: "p1", slug: "orbit", name: "Orbit" });
  await database.db.insert(account).values({ id: randomUUID(), userId: "mia", providerId: "telegram", accountId: String(member.id) });
});
afterAll(async () => {
  await database?.close();
  await fake?.stop();
});
beforeEach(() => {
  fake.state.reset();
  fake.state.addBot(FAKE_PLATFORM_BOT);
  fake.state.addBot(projectBot);
  fake.state.addUsers(member);
  fake.state.addChat({ id: GROUP, title: "Orbit Chat", type: "supergroup", username: "orbitchat" });
  fake.state.addChat({ id: CHANNEL, title: "Orbit News", type: "channel" });
});

const bot = (token = projectBot.token) => telegramBot({ apiUrl: social.telegramApiUrl, token, now });

describe("the Bot API client", () => {
  it("reads each membership status, and Telegram's refusals in their own words", async () => {
    fake.state.setBotInChat(GROUP, projectBot.id, { admin: true });
    const status = async () => {
      const answer = await getChatMember(bot(), String(GROUP), member.id);
      return answer.kind === "ok" ? (answer.data.status === "restricted" ? `restricted:${answer.data.is_member}` : answer.data.status) : answer.kind;
    };
    expect(await status()).toBe("left");
    for (const s of ["creator", "administrator", "member", "left", "kicked"] as const) {
      fake.state.setMembership(GROUP, member.id, { status: s });
      expect(await status()).toBe(s);
    }
    fake.state.setMembership(GROUP, member.id, { status: "restricted", isMember: false });
    expect(await status()).toBe("restricted:false");
    expect(await getChatMember(bot(), String(GROUP), 42)).toEqual({ kind: "user_not_found" });
    expect(await getChatMember(bot(), "-1000000000001", member.id)).toEqual({ kind: "chat_not_found" });
    expect(await sendMessage(bot(), String(member.id), "hi")).toEqual({ kind: "cant_initiate" });
    fake.state.blockBot(projectBot.id, member.id);
    expect(await sendMessage(bot(), String(member.id), "hi")).toEqual({ kind: "blocked" });
  });

  it("reads 429 with retry_after and 401 for an unknown token, and never puts a token in a logged detail", async () => {
    fake.state.rateLimitNext(17);
    expect(await getMe(bot())).toEqual({ kind: "rate_limited", retryAt: new Date(now.getTime() + 17_000) });
    expect(await getMe(bot("8000000009:AAUnknownTokenUnknownTokenUnknown0009"))).toEqual({ kind: "needs_reconnect" });
    const odd = await providerRequest(bot(), { path: "/getMe", schema: z.object({ nope: z.string() }), scope: "getMe", auth: "none" });
    expect(odd.kind).toBe("malformed");
    expect(JSON.stringify(odd)).not.toContain(projectBot.token.split(":")[1]!);
  });
});

describe("a project's Telegram bot", () => {
  const save = (chat: string, token = projectBot.token) => saveTelegramBot({ db: database.db, social, projectId: "p1", userId: "own", token, chat, now });

  it("checks the token with getMe, keeps it encrypted, and says in words what the bot lacks in the chat", async () => {
    expect(await save("@orbitchat", "8000000009:AAUnknownTokenUnknownTokenUnknown0009")).toMatchObject({
      ok: false,
      errors: { token: expect.stringContaining("does not know") },
    });
    expect(await save("t.me/+invite123456")).toMatchObject({ ok: false, errors: { chat: expect.any(String) } });

    expect(await save("https://t.me/orbitchat")).toMatchObject({
      ok: true,
      chatId: "@orbitchat",
      chatTitle: "Orbit Chat",
      botUsername: "OrbitCommunityBot",
      problems: ["@OrbitCommunityBot is not in Orbit Chat. Add @OrbitCommunityBot to Orbit Chat as an administrator, then check again."],
    });
    const [row] = await database.db.select().from(projectTelegram).where(eq(projectTelegram.projectId, "p1"));
    expect(row!.botToken).toMatch(/^gcm1:/);
    expect(row!.botToken).not.toContain(projectBot.token.split(":")[1]!);

    fake.state.setBotInChat(GROUP, projectBot.id, { admin: false });
    const recheck = () => recheckTelegramBot({ db: database.db, social, projectId: "p1", now });
    expect(await recheck()).toMatchObject({ problems: [expect.stringContaining("is in Orbit Chat but not an administrator")] });
    fake.state.setBotInChat(GROUP, projectBot.id, { admin: true });
    expect(await recheck()).toMatchObject({ ok: true, problems: [] });

    expect(await save(String(CHANNEL))).toMatchObject({
      problems: [`Telegram does not show ${CHANNEL} to @OrbitCommunityBot. Add @OrbitCommunityBot to ${CHANNEL} as an administrator, then check again.`],
    });
    expect(await removeTelegramBot({ db: database.db, projectId: "p1" })).toEqual({ ok: true });
    expect(await recheck()).toMatchObject({ ok: false, code: "not_found" });
  });
});

describe("telegram_join", () => {
  const check = (chatId = String(GROUP)) =>
    checkTelegramJoin({ db: database.db, social, projectId: "p1", userId: "mia", chatId, chatTitle: "Orbit Chat", now });

  it("is the project's to fix without a bot, or with one not in the chat", async () => {
    await removeTelegramBot({ db: database.db, projectId: "p1" }).catch(() => null);
    expect(await check()).toMatchObject({ ok: false, code: "unavailable", message: expect.stringContaining("project's team must set up its Telegram bot") });
    await saveTelegramBot({ db: database.db, social, projectId: "p1", userId: "own", token: projectBot.token, chat: String(GROUP), now });
    expect(await check()).toMatchObject({ ok: false, code: "unavailable", message: expect.stringContaining("cannot see who is in Orbit Chat") });
    fake.state.setBotInChat(CHANNEL, projectBot.id, { admin: false });
    expect(await check(String(CHANNEL))).toMatchObject({ code: "unavailable" });
  });

  it("finds members, administrators, the creator and restricted members still in; not the others", async () => {
    await saveTelegramBot({ db: database.db, social, projectId: "p1", userId: "own", token: projectBot.token, chat: String(GROUP), now });
    fake.state.setBotInChat(GROUP, projectBot.id, { admin: true });
    const outcome = async (membership: Parameters<typeof fake.state.setMembership>[2]) => {
      fake.state.setMembership(GROUP, member.id, membership);
      const result = await check();
      return result.ok ? "found" : result.code;
    };
    expect(await outcome({ status: "member" })).toBe("found");
    expect(await outcome({ status: "administrator" })).toBe("found");
    expect(await outcome({ status: "creator" })).toBe("found");
    expect(await outcome({ status: "restricted", isMember: true })).toBe("found");
    expect(await outcome({ status: "restricted", isMember: false })).toBe("not_met");
    expect(await outcome({ status: "left" })).toBe("not_met");
    expect(await outcome({ status: "kicked" })).toBe("not_met");
    fake.state.users.delete(member.id);
    expect(await check()).toMatchObject({ code: "not_met", message: expect.stringContaining("You are not in Orbit Chat on Telegram yet") });
    fake.state.rateLimitNext(5);
    expect(await check()).toMatchObject({ code: "limited", retryAfterSeconds: 5 });
  });
});

describe("checkSocialTask for telegram_join", () => {
  it("asks the project's bot, and says not found in the task's words", async () => {
    await saveTelegramBot({ db: database.db, social, projectId: "p1", userId: "own", token: projectBot.token, chat: String(GROUP), now });
    fake.state.setBotInChat(GROUP, projectBot.id, { admin: true });
    const config = { chatId: String(GROUP), chatTitle: "Orbit Chat", inviteUrl: "https://t.me/orbitchat", recheckBeforeRewards: true };
    const [t] = await database.db
      .insert(task)
      .values({ id: "tg-task", projectId: "p1", title: "Join Orbit Chat", type: "telegram_join", verification: "auto", xp: 10, config })
      .returning();
    const check = () => checkSocialTask({ db: database.db, social, task: t!, userId: "mia", now });
    expect(await check()).toMatchObject({ ok: false, code: "not_met", message: expect.stringContaining("You are not in Orbit Chat on Telegram yet") });
    fake.state.setMembership(GROUP, member.id, { status: "member" });
    expect(await check()).toMatchObject({ ok: true, verifiedBy: "api", submission: { account: "mia_tg" } });
    expect(await checkSocialTask({ db: database.db, social, task: t!, userId: "own", now })).toMatchObject({
      code: "conflict",
      message: expect.stringContaining("Connect your Telegram account"),
    });
  });
});
