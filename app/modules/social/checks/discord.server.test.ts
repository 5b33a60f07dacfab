import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSocialFakes, type FakeAccount, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { controlHandler } from "#tests/fakes/social/control";
import { checkDiscordMembership, fetchDiscordProfile } from "./discord.server";
import type { ProviderCall } from "./outcome";

/** A member's Discord membership and roles, read with their own token from the Discord fake over HTTP; and the fake's OAuth as the app meets it. */

const NOW = new Date("2026-03-01T12:00:00Z");
const GUILD = "900000000000000001";
const HOLDER = "900000000000000011";
const ada: FakeAccount = { id: "800000000000000042", handle: "ada", name: "Ada", avatarUrl: "https://cdn.discordapp.com/avatars/800000000000000042/f00d.png" };

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes({ now: () => NOW.getTime() });
});
afterAll(() => fakes.stop());
beforeEach(() => {
  fakes.reset();
  fakes.discord.addGuild({ id: GUILD, name: "Lumen", roles: [{ id: HOLDER, name: "Holder", position: 2, permissions: "0" }] });
});

const callWith = (accessToken: string): ProviderCall => ({ provider: "discord", apiUrl: fakes.env.DISCORD_API_URL!, accessToken, now: NOW });
const tokenOf = (scope?: string) => fakes.issueToken("discord", ada, scope === undefined ? {} : { scope }).accessToken;

describe("checkDiscordMembership", () => {
  it("finds a member (with the role for a role task), and answers not found for one who is not in the server or lacks the role", async () => {
    const call = callWith(tokenOf());
    expect(await checkDiscordMembership(call, { guildId: GUILD })).toEqual({ kind: "not_found" });

    fakes.discord.setMember(GUILD, ada.id, { roles: [], joinedAt: "2026-02-01T10:00:00.000Z" });
    expect(await checkDiscordMembership(call, { guildId: GUILD })).toEqual({ kind: "found", evidence: { id: GUILD, at: "2026-02-01T10:00:00.000Z" } });
    expect(await checkDiscordMembership(call, { guildId: GUILD, roleId: HOLDER })).toEqual({ kind: "not_found" });

    fakes.discord.setMember(GUILD, ada.id, { roles: [HOLDER] });
    expect(await checkDiscordMembership(call, { guildId: GUILD, roleId: HOLDER })).toEqual({
      kind: "found",
      evidence: { id: HOLDER, at: "2026-02-01T10:00:00.000Z" },
    });
    expect(fakes.apiRequests.discord.at(-1)).toMatchObject({ method: "GET", path: `/api/v10/users/@me/guilds/${GUILD}/member`, authorization: "bearer" });
  });

  it("never counts Discord's problems against the member: a refused token, a missing scope, a rate limit, an unexpected 404", async () => {
    fakes.discord.setMember(GUILD, ada.id, { roles: [HOLDER] });
    expect(await checkDiscordMembership(callWith("not-a-token"), { guildId: GUILD })).toEqual({ kind: "needs_reconnect" });
    // A token granted without guilds.members.read: Discord's 403 50001 Missing Access.
    expect(await checkDiscordMembership(callWith(tokenOf("identify guilds")), { guildId: GUILD })).toEqual({
      kind: "missing_scope",
      scope: "guilds.members.read",
    });

    const call = callWith(tokenOf());
    fakes.discord.rateLimitNext(1, 2.5);
    expect(await checkDiscordMembership(call, { guildId: GUILD })).toEqual({ kind: "rate_limited", retryAt: new Date(NOW.getTime() + 2500) });
    expect(await checkDiscordMembership(call, { guildId: GUILD })).toMatchObject({ kind: "found" });

    // A 404 with another code (an unknown route, say) is ours to look into, not a member who left.
    const wrong = await checkDiscordMembership({ ...call, apiUrl: `${fakes.origins.discord}/api/v10/nowhere` }, { guildId: GUILD });
    expect(wrong).toMatchObject({ kind: "malformed", detail: expect.stringContaining("HTTP 404 with code 0") });
    expect(JSON.stringify(wrong)).not.toContain(call.accessToken);
  });
});

describe("Discord's OAuth as the fake speaks it", () => {
  const REDIRECT = "http://localhost:5173/api/auth/oauth2/callback/discord";

  async function authorize(params: Record<string, string>) {
    const url = new URL(fakes.env.DISCORD_AUTHORIZE_URL!);
    const query = { response_type: "code", client_id: fakes.clients.discord.clientId, redirect_uri: REDIRECT, scope: "identify guilds guilds.members.read" };
    for (const [name, value] of Object.entries({ ...query, ...params })) url.searchParams.set(name, value);
    return fetch(url, { redirect: "manual" });
  }
  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(fakes.env.DISCORD_TOKEN_URL!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it("needs PKCE S256, takes the client in the form or by Basic, rotates refresh tokens, and serves the member's profile", async () => {
    expect((await authorize({})).status).toBe(400);

    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    fakes.nextAccount("discord", ada);
    const back = new URL((await authorize({ code_challenge: challenge, code_challenge_method: "S256" })).headers.get("location")!);
    const { clientId, clientSecret } = fakes.clients.discord;
    const issued = await token({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(issued).toEqual({
      status: 200,
      body: {
        access_token: expect.any(String),
        token_type: "Bearer",
        expires_in: 604_800,
        refresh_token: expect.any(String),
        scope: "identify guilds guilds.members.read",
      },
    });
    expect(await fetchDiscordProfile(callWith(issued.body.access_token as string))).toEqual({
      kind: "profile",
      profile: {
        id: ada.id,
        handle: "ada",
        displayName: "Ada",
        avatarUrl: `https://cdn.discordapp.com/avatars/${ada.id}/f00d.png?size=128`,
        accountCreatedAt: expect.any(Date),
      },
    });

    const basic = { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` };
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: issued.body.refresh_token as string }, basic);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect((await token({ grant_type: "refresh_token", refresh_token: issued.body.refresh_token as string }, basic)).body).toMatchObject({
      error: "invalid_grant",
    });
    expect(fakes.tokenRequests.discord.map((r) => [r.grantType, r.basicAuth, r.clientSecretInBody, r.codeVerifier])).toEqual([
      ["authorization_code", false, true, true],
      ["refresh_token", true, false, false],
      ["refresh_token", true, false, false],
    ]);
  });
});

describe("the Discord fake's bot endpoints, driven through the control API as the e2e tests drive it", () => {
  let control: Server;
  let controlUrl: string;
  beforeAll(async () => {
    const handle = controlHandler(fakes);
    control = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
    controlUrl = `http://127.0.0.1:${(control.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => control.close(() => resolve())));

  const drive = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(controlUrl + path, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const bot = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(fakes.env.DISCORD_API_URL + path, { method, headers: { authorization: "Bot bot-token", ...headers } });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, retryAfter: response.headers.get("retry-after") };
  };

  it("grants and removes roles below the bot's own with MANAGE_ROLES, refuses the rest in Discord's words, and logs every request", async () => {
    const BOT_ROLE = "900000000000000020";
    const MOD = "900000000000000030";
    const guild = {
      id: "900000000000000002",
      name: "Nova",
      roles: [
        { id: HOLDER, name: "Holder", position: 1, permissions: "0" },
        { id: BOT_ROLE, name: "Nova Bot", position: 2, permissions: String(1n << 28n) },
        { id: MOD, name: "Mod", position: 3, permissions: "0" },
      ],
    };
    expect((await drive("POST", "/discord/guilds", guild)).status).toBe(201);
    expect((await drive("POST", "/discord/bots", { token: "bot-token", userId: "910000000000000001", username: "NovaBot" })).status).toBe(201);
    expect(await bot("GET", `/guilds/${guild.id}`)).toMatchObject({ status: 403, body: { code: 50001, message: "Missing Access" } });
    await drive("POST", "/discord/bots", { token: "bot-token", userId: "910000000000000001", username: "NovaBot", guildId: guild.id, roleIds: [BOT_ROLE] });
    await drive("POST", "/discord/members", { guildId: guild.id, userId: ada.id, roles: [] });

    expect(await bot("GET", "/users/@me")).toMatchObject({ status: 200, body: { id: "910000000000000001", username: "NovaBot", bot: true } });
    expect(await bot("GET", `/guilds/${guild.id}`)).toMatchObject({ status: 200, body: { id: guild.id, name: "Nova", owner_id: expect.any(String) } });
    expect((await bot("GET", `/guilds/${guild.id}/roles`)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: guild.id, name: "@everyone", position: 0 }), expect.objectContaining({ id: MOD, position: 3 })]),
    );
    const grant = (role: string, user = ada.id, method = "PUT") =>
      bot(method, `/guilds/${guild.id}/members/${user}/roles/${role}`, { "x-audit-log-reason": encodeURIComponent("Questline: Season 1 — done") });
    expect(await grant(HOLDER)).toMatchObject({ status: 204, body: null });
    expect(await drive("GET", `/discord/members/${guild.id}/${ada.id}`)).toEqual({ status: 200, body: { roles: [HOLDER] } });
    expect(await grant(MOD)).toMatchObject({ status: 403, body: { code: 50013, message: "Missing Permissions" } });
    expect(await grant("900000000000000099")).toMatchObject({ status: 404, body: { code: 10011, message: "Unknown Role" } });
    expect(await grant(HOLDER, "800000000000000077")).toMatchObject({ status: 404, body: { code: 10007, message: "Unknown Member" } });
    expect(await bot("GET", `/guilds/${guild.id}/members/800000000000000077`)).toMatchObject({ status: 404, body: { code: 10007 } });

    await drive("POST", "/discord/rate-limit", { count: 1, retryAfterSeconds: 0.75 });
    expect(await grant(HOLDER, ada.id, "DELETE")).toEqual({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: 0.75, global: false },
      retryAfter: "1",
    });
    expect(await grant(HOLDER, ada.id, "DELETE")).toMatchObject({ status: 204 });
    expect(fakes.discord.memberRoles(guild.id, ada.id)).toEqual([]);

    // Without MANAGE_ROLES (nor ADMINISTRATOR) the bot may change nothing.
    await drive("POST", "/discord/bots", { token: "bot-token", userId: "910000000000000001", username: "NovaBot", guildId: guild.id, roleIds: [] });
    expect(await grant(HOLDER)).toMatchObject({ status: 403, body: { code: 50013 } });

    const log = (await drive("GET", "/discord/role-requests")).body as { method: string; roleId: string; reason: string; status: number }[];
    expect(log.map((r) => [r.method, r.roleId, r.status])).toEqual([
      ["PUT", HOLDER, 204],
      ["PUT", MOD, 403],
      ["PUT", "900000000000000099", 404],
      ["PUT", HOLDER, 404],
      ["DELETE", HOLDER, 429],
      ["DELETE", HOLDER, 204],
      ["PUT", HOLDER, 403],
    ]);
    expect(log[0]!.reason).toBe("Questline: Season 1 — done");

    expect(await drive("DELETE", `/discord/members/${guild.id}/${ada.id}`)).toMatchObject({ status: 200 });
    expect(fakes.discord.memberRoles(guild.id, ada.id)).toBeNull();
    expect((await drive("POST", "/discord/members", { guildId: guild.id })).status).toBe(400);
  });
});
