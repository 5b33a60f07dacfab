import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { telegramChat } from "#db/schema/community";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { notification } from "#db/schema/reach";
import type { Database, Db } from "~/lib/db.server";
import { emitEvent } from "~/modules/events/emit.server";
import { socialConfigFromEnv, type SocialConfig } from "~/modules/social/social-config.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { FAKE_PLATFORM_BOT, telegramFakeEnv } from "#tests/fakes/telegram/endpoints";
import { startTelegramFake, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";
import { notifyFromEvents } from "./fanout.server";
import { notificationSettings, saveNotificationSettings } from "./preferences.server";
import { sendTelegramNotifications, sendTelegramTest, telegramNotificationState } from "./telegram.server";

let database: Database;
let db: Db;
let fake: TelegramFake;
let social: SocialConfig;
const now = new Date("2026-11-29T10:00:00Z");
const appUrl = "http://app.test";
const TG = { ann: 500_000_001, bob: 500_000_002 };

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  fake = await startTelegramFake();
  social = socialConfigFromEnv(telegramFakeEnv(fake.origin), { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-tg-notify-")) });
  await db.insert(user).values(["ann", "bob", "cy"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db.insert(account).values(Object.entries(TG).map(([userId, id]) => ({ id: randomUUID(), userId, providerId: "telegram", accountId: String(id) })));
  await db.insert(project).values({ id: "p", slug: "pixel", name: "Pixel" });
  await db
    .insert(task)
    .values({ id: "t", projectId: "p", title: "Post a photo", type: "visit_link", verification: "none", xp: 10, config: { url: "https://example.com" } });
});
afterAll(async () => {
  await database?.close();
  await fake?.stop();
});
beforeEach(async () => {
  fake.state.reset();
  fake.state.addBot(FAKE_PLATFORM_BOT);
  fake.state.addUsers({ id: TG.ann, first_name: "Ann" }, { id: TG.bob, first_name: "Bob" });
  await db.delete(notification);
});

const send = (at = now) => sendTelegramNotifications({ db, social, appUrl, now: at });
const states = async () => Object.fromEntries((await db.select().from(notification).orderBy(notification.id)).map((n) => [n.dedupe, n.telegram]));
async function pending(userId: string, dedupe: string) {
  await db
    .insert(notification)
    .values({ userId, kind: "review", dedupe, title: `Approved: ${dedupe}`, body: "Well done.", link: "/tasks/t", telegram: "pending" });
}

describe("notifications by Telegram", () => {
  it("opens the member's chat with a test message once they pressed Start, and says to press Start before", async () => {
    expect(await telegramNotificationState({ db, social, userId: "cy" })).toBeNull();
    expect(await telegramNotificationState({ db, social: { ...social, telegram: null }, userId: "ann" })).toBeNull();
    expect(await sendTelegramTest({ db, social, appUrl, userId: "ann", now })).toMatchObject({
      ok: false,
      message: expect.stringContaining("open @QuestlineFakeBot in Telegram, press Start"),
    });
    expect(await telegramNotificationState({ db, social, userId: "ann" })).toMatchObject({ started: false });
    fake.state.startBot(FAKE_PLATFORM_BOT.id, TG.ann);
    expect(await sendTelegramTest({ db, social, appUrl, userId: "ann", now })).toEqual({ ok: true });
    expect(fake.state.messages.map((m) => m.chatId)).toEqual([String(TG.ann)]);
    expect(await telegramNotificationState({ db, social, userId: "ann" })).toEqual({ botUsername: "QuestlineFakeBot", started: true, blocked: false });
  });

  it("is pending by the member's choice, when their chat is open", async () => {
    await db.insert(completion).values({ id: "c-ann", taskId: "t", userId: "ann", period: "once", status: "approved" });
    const settings = await notificationSettings({ db, userId: "ann" });
    expect(settings.telegram).toEqual([]);
    await saveNotificationSettings({ db, userId: "ann", kinds: settings.kinds, digest: false, telegram: ["review"] });
    expect((await notificationSettings({ db, userId: "ann" })).telegram).toEqual(["review"]);
    const data = {
      completionId: "c-ann",
      taskId: "t",
      taskTitle: "Post a photo",
      userId: "ann",
      campaignId: null,
      crusadeId: null,
      airdropId: null,
      reviewed: true,
      reason: null,
    };
    await emitEvent(db, { type: "completion.approved", key: "ok-1", projectId: "p", data });
    await notifyFromEvents({ db, now });
    expect(await states()).toEqual({ "ok-1": "pending" });
  });

  it("sends each at most once, stops at a block, and waits out a rate limit", async () => {
    await db
      .insert(telegramChat)
      .values([
        { userId: "ann", telegramUserId: String(TG.ann), startedAt: now },
        { userId: "bob", telegramUserId: String(TG.bob), startedAt: now },
      ])
      .onConflictDoUpdate({ target: telegramChat.userId, set: { startedAt: now, blockedAt: null } });
    fake.state.startBot(FAKE_PLATFORM_BOT.id, TG.ann);
    fake.state.startBot(FAKE_PLATFORM_BOT.id, TG.bob);
    await pending("ann", "a1");
    await pending("bob", "b1");
    await pending("bob", "b2");

    fake.state.rateLimitNext(3);
    expect(await send()).toEqual({ sent: 0, failed: 0, retry: 3 });
    expect(await states()).toEqual({ a1: "pending", b1: "pending", b2: "pending" });

    fake.state.blockBot(FAKE_PLATFORM_BOT.id, TG.bob);
    expect(await send()).toEqual({ sent: 1, failed: 1, retry: 0 });
    expect(await states()).toEqual({ a1: "sent", b1: "failed", b2: "none" });
    expect(fake.state.messages).toMatchObject([{ chatId: String(TG.ann), text: "Approved: a1\n\nWell done.\n\nhttp://app.test/tasks/t" }]);
    const [bobChat] = await db.select().from(telegramChat).where(eq(telegramChat.userId, "bob"));
    expect(bobChat!.blockedAt).toEqual(now);
    expect(await send()).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect(fake.state.messages).toHaveLength(1);

    // A run that died after claiming: never sent again, marked failed once its time has passed.
    await pending("ann", "a2");
    await db.update(notification).set({ telegramSentAt: now }).where(eq(notification.dedupe, "a2"));
    expect(await send(new Date(now.getTime() + 60_000))).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect(await send(new Date(now.getTime() + 16 * 60_000))).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect((await states()).a2).toBe("failed");
    expect(fake.state.messages).toHaveLength(1);
  });

  it("fails a message whose send Telegram left unanswered (it may have been delivered), and keeps the rest for the next run", async () => {
    await db.update(notification).set({ telegram: "none" });
    await db.update(telegramChat).set({ startedAt: now, blockedAt: null }).where(eq(telegramChat.userId, "ann"));
    fake.state.startBot(FAKE_PLATFORM_BOT.id, TG.ann);
    await pending("ann", "c1");
    await pending("ann", "c2");
    const silent = { ...social, telegramApiUrl: "http://127.0.0.1:9" };
    expect(await sendTelegramNotifications({ db, social: silent, appUrl, now })).toEqual({ sent: 0, failed: 1, retry: 1 });
    expect(await states()).toMatchObject({ c1: "failed", c2: "pending" });
    const before = fake.state.messages.length;
    expect(await send()).toEqual({ sent: 1, failed: 0, retry: 0 });
    expect(await states()).toMatchObject({ c1: "failed", c2: "sent" });
    expect(fake.state.messages).toHaveLength(before + 1);
  });
});
