import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_PLATFORM_BOT } from "#tests/fakes/telegram/endpoints";
import { startTelegramFake, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";

/** The Telegram fake as the e2e tests drive it from another process: its control API, and the Bot API read from a query, a form or JSON. */
let fake: TelegramFake;
beforeAll(async () => {
  fake = await startTelegramFake({ bots: [FAKE_PLATFORM_BOT] });
});
afterAll(() => fake?.stop());

const control = async (command: string, ...args: unknown[]) => {
  const response = await fetch(`${fake.origin}/__control/${command}`, { method: "POST", body: JSON.stringify(args) });
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: string } };
};
const api = (method: string, init?: RequestInit, query = "") =>
  fetch(`${fake.origin}/bot${FAKE_PLATFORM_BOT.token}/${method}${query}`, init).then((r) => r.json());

describe("the Telegram fake", () => {
  it("is driven through its control API and answers the Bot API in Telegram's shapes, whatever the body", async () => {
    await control("addUsers", { id: 42, first_name: "Lu" });
    await control("addChat", { id: -1001, title: "Group", type: "supergroup" });
    await control("setBotInChat", -1001, FAKE_PLATFORM_BOT.id, { admin: true });
    await control("setMembership", -1001, 42, { status: "restricted", isMember: true });
    expect(await api("getChatMember", undefined, "?chat_id=-1001&user_id=42")).toMatchObject({ ok: true, result: { status: "restricted", is_member: true } });
    const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "chat_id=42&text=hello" };
    expect(await api("sendMessage", form)).toEqual({ ok: false, error_code: 403, description: "Forbidden: bot can't initiate conversation with a user" });
    await control("startBot", FAKE_PLATFORM_BOT.id, 42);
    const json = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ chat_id: 42, text: "hello" }) };
    expect(await api("sendMessage", json)).toMatchObject({ ok: true, result: { message_id: 1 } });
    expect((await control("messages")).body.result).toMatchObject([{ chatId: "42", text: "hello" }]);
    await control("rateLimitNext", 9);
    expect(await api("getMe")).toEqual({ ok: false, error_code: 429, description: "Too Many Requests: retry after 9", parameters: { retry_after: 9 } });
    expect(await fetch(`${fake.origin}/botnope:x/getMe`).then((r) => r.json())).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
    expect(await control("noSuchCommand")).toMatchObject({ status: 404 });
    await control("reset");
    expect(fake.state.messages).toEqual([]);
    expect(await api("getMe")).toMatchObject({ ok: true, result: { username: FAKE_PLATFORM_BOT.username } });
  });
});
