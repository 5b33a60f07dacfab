import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { FAKE_PLATFORM_BOT, telegramFakeEnv } from "#tests/fakes/telegram/endpoints";
import { signedLogin, startTelegramFake, type FakeTelegramUser, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";
import { disconnect, listConnections } from "./connections.server";
import { socialConfigFromEnv, type SocialConfig } from "./social-config.server";
import { connectTelegram, decodeAuthResult, telegramLoginUrl, verifyTelegramLogin } from "./telegram-login.server";

let database: Database;
let fake: TelegramFake;
let social: SocialConfig;
const now = new Date("2026-06-01T12:00:00Z");
const nowSeconds = now.getTime() / 1000;
const token = FAKE_PLATFORM_BOT.token;
const tess = { id: 700_000_001, first_name: "Tess", last_name: "Gram", username: "tess_tg", photo_url: "https://t.me/i/userpic/320/tess.jpg" };

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startTelegramFake({ bots: [FAKE_PLATFORM_BOT] });
  fake.state.now = () => nowSeconds;
  social = socialConfigFromEnv(telegramFakeEnv(fake.origin), { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-tg-login-")) });
  await database.db.insert(user).values(["ann", "bob", "cat"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
});
afterAll(async () => {
  await database?.close();
  await fake?.stop();
});

/** Goes through the fake's login page as a browser would and returns the decoded `#tgAuthResult`. */
async function logIn(account: FakeTelegramUser = tess, fault: "bad_hash" | "old_auth_date" | null = null) {
  fake.state.nextLogin(account);
  fake.state.setLoginFault(fault);
  const url = telegramLoginUrl({
    social,
    telegram: social.telegram!,
    origin: "http://app.test",
    returnTo: "http://app.test/settings/connections/telegram/callback",
  });
  const page = await fetch(url);
  expect(await page.text()).toContain("@QuestlineFakeBot asks to log you in");
  const confirm = await fetch(url.replace("/auth?", "/auth/login?"), { redirect: "manual" });
  const location = confirm.headers.get("location")!;
  expect(location).toMatch(/^http:\/\/app\.test\/settings\/connections\/telegram\/callback#tgAuthResult=/);
  return decodeAuthResult(location.split("#tgAuthResult=")[1]!);
}

describe("the Login Widget's signed data", () => {
  it("is taken when Telegram signed it with the platform bot's token, within a day", async () => {
    const data = await logIn();
    expect(verifyTelegramLogin(data, token, now)).toMatchObject({ ok: true, data: { id: tess.id, username: "tess_tg" } });
    expect(verifyTelegramLogin(signedLogin({ id: 5, first_name: "Min" }, token, nowSeconds - 86_000), token, now).ok).toBe(true);
  });

  it("is refused with a bad hash, another bot's key, an old or future date, a field changed or missing", async () => {
    expect(verifyTelegramLogin(await logIn(tess, "bad_hash"), token, now)).toMatchObject({ ok: false, message: expect.stringContaining("signature") });
    expect(verifyTelegramLogin(await logIn(tess, "old_auth_date"), token, now)).toMatchObject({
      ok: false,
      message: expect.stringContaining("more than a day old"),
    });
    const good = signedLogin(tess, token, nowSeconds);
    expect(verifyTelegramLogin(good, "7000000002:AAAnotherBotTokenAnotherBotToken0002", now).ok).toBe(false);
    expect(verifyTelegramLogin(signedLogin(tess, token, nowSeconds + 3600), token, now)).toMatchObject({ message: expect.stringContaining("future") });
    expect(verifyTelegramLogin({ ...good, id: 700_000_002 }, token, now).ok).toBe(false);
    expect(verifyTelegramLogin({ ...good, username: "someone_else" }, token, now).ok).toBe(false);
    const { hash: _hash, ...unsigned } = good;
    expect(verifyTelegramLogin(unsigned, token, now)).toMatchObject({ message: expect.stringContaining("incomplete") });
    const { first_name: _name, ...nameless } = good;
    expect(verifyTelegramLogin(nameless, token, now).ok).toBe(false);
    expect(verifyTelegramLogin("not an object", token, now).ok).toBe(false);
  });
});

describe("connecting Telegram", () => {
  const connect = (userId: string, authData: unknown, at = now) => connectTelegram({ db: database.db, social, userId, authData, now: at });

  it("links the account with method widget, its name and picture; one per member, not another's, and 30 days before a new member", async () => {
    expect(await connect("ann", await logIn())).toEqual({ ok: true, handle: "tess_tg" });
    const telegram = (await listConnections({ db: database.db, social, userId: "ann" })).find((c) => c.provider === "telegram")!;
    expect(telegram.account).toMatchObject({
      accountId: String(tess.id),
      handle: "tess_tg",
      displayName: "Tess Gram",
      method: "widget",
      avatarUrl: tess.photo_url,
    });

    expect(await connect("bob", await logIn())).toMatchObject({ ok: false, message: expect.stringContaining("another member") });
    const other = { id: 700_000_009, first_name: "Otto" };
    expect(await connect("ann", await logIn(other))).toMatchObject({ ok: false, message: expect.stringContaining("already have a Telegram account") });

    await disconnect({ db: database.db, userId: "ann", provider: "telegram", now });
    const tomorrow = new Date(now.getTime() + 86_400_000);
    fake.state.now = () => tomorrow.getTime() / 1000;
    expect(await connect("bob", await logIn(), tomorrow)).toMatchObject({ ok: false, message: expect.stringContaining("less than 30 days ago") });
    expect(await connect("ann", await logIn(), tomorrow)).toMatchObject({ ok: true });
    fake.state.now = () => nowSeconds;
  });

  it("says Telegram is not set up without the platform's bot, and holds back a flood of tries", async () => {
    expect(await connectTelegram({ db: database.db, social: { ...social, telegram: null }, userId: "cat", authData: {} })).toMatchObject({
      code: "unavailable",
      message: "Telegram is not set up on this server.",
    });
    for (let i = 0; i < 10; i++) await connect("cat", { bad: true });
    expect(await connect("cat", await logIn())).toMatchObject({ code: "limited" });
  });
});
