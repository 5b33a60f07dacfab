import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { FAKE_PLATFORM_BOT, telegramFakeEnv } from "#tests/fakes/telegram/endpoints";
import { startTelegramFake, type TelegramFake } from "#tests/fakes/telegram/telegram-fake";
import type { Services } from "~/services/services.server";
import { action as connectionAction, loader as connectionLoader } from "./connection";
import { action as callbackAction } from "./connection-telegram-callback";

let fake: TelegramFake;
let services: Services;
let ann: { cookie: string };

beforeAll(async () => {
  fake = await startTelegramFake({ bots: [FAKE_PLATFORM_BOT] });
  services = await createTestServices(telegramFakeEnv(fake.origin));
  ann = await signedInMember(services, "ann");
});
afterAll(async () => {
  await services?.close();
  await fake?.stop();
});

const post = (path: string, body: string, member = ann) =>
  new Request(`${services.env.APP_URL}${path}`, {
    method: "POST",
    headers: { origin: services.env.APP_URL, cookie: member.cookie, "content-type": "application/x-www-form-urlencoded" },
    body,
  });

describe("connecting Telegram from Settings › Connections", () => {
  it("goes to Telegram's login page, comes back with #tgAuthResult, and links the account the callback checked", async () => {
    fake.state.nextLogin({ id: 700_000_101, first_name: "Ann", username: "ann_tg" });
    const started = (await answer(() =>
      connectionAction(routeArgs(services, post("/settings/connections/telegram", "intent=connect"), { provider: "telegram" })),
    )) as Response;
    expect(started.status).toBe(302);
    const login = new URL(started.headers.get("location")!);
    expect(login.origin + login.pathname).toBe(`${fake.origin}/auth`);
    expect(login.searchParams.get("bot_id")).toBe(String(FAKE_PLATFORM_BOT.id));
    expect(login.searchParams.get("request_access")).toBe("write");
    expect(login.searchParams.get("return_to")).toBe(`${services.env.APP_URL}/settings/connections/telegram/callback`);

    login.pathname = "/auth/login";
    const back = await fetch(login, { redirect: "manual" });
    const result = /#tgAuthResult=(.+)$/.exec(back.headers.get("location")!)![1]!;

    // A tampered result is refused in words, and links nothing.
    const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(result, "base64url").toString()), username: "mallory" })).toString("base64url");
    const refused = (await answer(() => callbackAction(routeArgs(services, post("/settings/connections/telegram/callback", `result=${tampered}`))))) as {
      data: { errors: { form: string } };
      init: { status: number };
    };
    expect(refused.init.status).toBe(409);
    expect(refused.data.errors.form).toContain("signature");

    const linked = (await answer(() => callbackAction(routeArgs(services, post("/settings/connections/telegram/callback", `result=${result}`))))) as Response;
    expect(linked.status).toBe(302);
    expect(linked.headers.get("location")).toBe("/settings/connections/telegram");
    const page = await connectionLoader(
      routeArgs(services, new Request(`${services.env.APP_URL}/settings/connections/telegram`, { headers: { cookie: ann.cookie } }), { provider: "telegram" }),
    );
    expect(page).toMatchObject({ configured: true, account: { handle: "ann_tg", method: "widget", accountId: "700000101" } });
  });

  it("says Telegram is not set up on a server without the platform's bot", async () => {
    const bare = await createTestServices();
    try {
      const member = await signedInMember(bare, "bob");
      const request = new Request(`${bare.env.APP_URL}/settings/connections/telegram`, { headers: { cookie: member.cookie } });
      expect(await connectionLoader(routeArgs(bare, request, { provider: "telegram" }))).toMatchObject({ configured: false, account: null });
    } finally {
      await bare.close();
    }
  });
});
