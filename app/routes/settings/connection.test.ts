import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { account } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { startSocialFakes, type FakeAccount, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { socialAccess } from "~/modules/social/access.server";
import { FAKE_PROVIDERS, type FakeProvider } from "#tests/fakes/social/endpoints";
import { decryptToken } from "~/lib/secret-box.server";
import type { Services } from "~/services/services.server";
import { createAuth } from "~/modules/auth/auth.server";
import { createLogger } from "~/lib/logger.server";
import { loader as authApi } from "../api.auth";
import { action, loader } from "./connection";
import { loader as connectionsList } from "./connections";

let fakes: SocialFakes;
let services: Services;
let ann: { cookie: string };
let bob: { cookie: string };

beforeAll(async () => {
  fakes = await startSocialFakes();
  services = await createTestServices(fakes.env);
  ann = await signedInMember(services, "ann");
  bob = await signedInMember(services, "bob");
});
afterAll(async () => {
  await services?.close();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const page = (provider: FakeProvider, query = "") => `${services.env.APP_URL}/settings/connections/${provider}${query}`;
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!);

/**
 * What a browser does when the member presses Connect: the page's action answers a redirect to the
 * provider (with better-auth's state cookie), the provider sends the browser back to the callback,
 * and better-auth links the account and redirects to the page. Returns where the browser lands.
 */
async function connect(member: { cookie: string }, provider: FakeProvider, who: FakeAccount, options?: { scopes?: string[] }) {
  fakes.nextAccount(provider, who, options);
  const request = new Request(page(provider), {
    method: "POST",
    headers: { origin: services.env.APP_URL, cookie: member.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: "intent=connect",
  });
  const started = (await answer(() => action(routeArgs(services, request, { provider })))) as Response;
  expect(started.status).toBe(302);
  const authorize = new URL(started.headers.get("location")!);
  expect(authorize.origin).toBe(fakes.origins[provider]);
  const back = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(back.headers.get("location")!);
  expect(callback.pathname).toBe(`/api/auth/callback/${provider}`);
  const cookie = [member.cookie, ...cookiesOf(started)].join("; ");
  const linked = await services.auth.handler(new Request(callback, { headers: { cookie } }));
  expect(linked.status).toBe(302);
  return new URL(linked.headers.get("location")!, services.env.APP_URL);
}

async function view(member: { cookie: string }, provider: FakeProvider, query = "") {
  const request = new Request(page(provider, query), { headers: { cookie: member.cookie } });
  return loader(routeArgs(services, request, { provider }));
}

const person = (id: string, handle: string, accountType?: FakeAccount["accountType"]): FakeAccount => ({
  id,
  handle,
  name: handle.toUpperCase(),
  avatarUrl: `https://pbs.twimg.com/profile_images/${id}.jpg`,
  ...(accountType ? { accountType } : {}),
});

describe("connecting social accounts through each provider's redirect", () => {
  it.each(FAKE_PROVIDERS)("connects %s, shows the handle, keeps the tokens encrypted, and disconnects", async (provider) => {
    // Discord's ids are snowflakes (17 to 20 digits).
    const who = person(provider === "discord" ? "800000000000000101" : `${provider}-1`, `ann_${provider}`, provider === "instagram" ? "BUSINESS" : undefined);
    const landed = await connect(ann, provider, who);
    expect(landed.pathname + landed.search).toBe(`/settings/connections/${provider}?connected=1`);

    const shown = await view(ann, provider, "?connected=1");
    expect(shown).toMatchObject({
      configured: true,
      justConnected: true,
      linkError: null,
      account: { handle: who.handle, status: "active", missingScopes: [] },
    });

    const [row] = await services.database.db.select().from(account).where(eq(account.accountId, who.id));
    expect(row?.accessToken).toMatch(/^gcm1:/);
    expect(decryptToken(services.env.social.tokenKey, row!.accessToken!)).toBeTruthy();
    const issued = fakes.tokenRequests[provider].at(-1);
    expect(issued).toBeTruthy();

    const form = new Request(page(provider), {
      method: "POST",
      headers: { origin: services.env.APP_URL, cookie: ann.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=disconnect",
    });
    const gone = (await action(routeArgs(services, form, { provider }))) as Response;
    expect(gone.status).toBe(302);
    expect((await view(ann, provider)).account).toBeNull();
    expect(await services.database.db.select().from(account).where(eq(account.accountId, who.id))).toEqual([]);
  });

  it("speaks each provider's protocol: X with PKCE and HTTP Basic, TikTok with client_key, Instagram swapping for a long-lived token", async () => {
    await connect(ann, "x", person("x-2", "ann_x2"));
    expect(fakes.tokenRequests.x.at(-1)).toMatchObject({ grantType: "authorization_code", basicAuth: true, codeVerifier: true });
    await connect(ann, "tiktok", person("tt-2", "ann_tt2"));
    expect(fakes.tokenRequests.tiktok.at(-1)).toMatchObject({ grantType: "authorization_code", clientKey: true });
    await connect(ann, "instagram", person("ig-2", "ann_ig2", "MEDIA_CREATOR"));
    expect(fakes.tokenRequests.instagram.map((r) => r.grantType)).toEqual(["authorization_code", "ig_exchange_token"]);
    for (const provider of ["x", "tiktok", "instagram"] as const) {
      const form = new Request(page(provider), {
        method: "POST",
        headers: { origin: services.env.APP_URL, cookie: ann.cookie, "content-type": "application/x-www-form-urlencoded" },
        body: "intent=disconnect",
      });
      await action(routeArgs(services, form, { provider }));
    }
  });

  it("refuses an X account another member holds, and one another member let go less than 30 days ago", async () => {
    const shared = person("x-shared", "shared");
    await connect(ann, "x", shared);
    const refused = await connect(bob, "x", shared);
    expect(refused.searchParams.get("error")).toBe("account_already_linked_to_different_user");
    const shown = await view(bob, "x", refused.search);
    expect(shown.account).toBeNull();
    expect(shown.linkError).toContain("already connected to another member");

    const form = new Request(page("x"), {
      method: "POST",
      headers: { origin: services.env.APP_URL, cookie: ann.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=disconnect",
    });
    await action(routeArgs(services, form, { provider: "x" }));
    const waiting = await connect(bob, "x", shared);
    expect(waiting.searchParams.get("error")).toBe("relink_wait");
    expect((await view(bob, "x", waiting.search)).linkError).toContain("less than 30 days ago");
    // Its last holder may take it back at once.
    expect((await connect(ann, "x", shared)).searchParams.get("connected")).toBe("1");
  });

  it("gives one of two members connecting one account at the same moment the account, the other the refusal in words, logging no statement's parameters", async () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    const watched = {
      ...services,
      logger,
      auth: createAuth({ db: services.database.db, env: services.env, mailer: services.mailer, logger, chains: services.chains }),
    };
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (let round = 0; round < 6; round++) {
        const shared = person(`x-race-${round}`, `race${round}`);
        const members = [await signedInMember(services, `racer-a${round}`), await signedInMember(services, `racer-b${round}`)];
        // Both authorize on X one after the other, then come back to the callback at the same moment.
        const callbacks: Request[] = [];
        for (const member of members) {
          fakes.nextAccount("x", shared);
          const request = new Request(page("x"), {
            method: "POST",
            headers: { origin: services.env.APP_URL, cookie: member.cookie, "content-type": "application/x-www-form-urlencoded" },
            body: "intent=connect",
          });
          const started = (await action(routeArgs(watched, request, { provider: "x" }))) as Response;
          const back = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" });
          callbacks.push(new Request(back.headers.get("location")!, { headers: { cookie: [member.cookie, ...cookiesOf(started)].join("; ") } }));
        }
        const answers = (await Promise.all(callbacks.map((callback) => authApi(routeArgs(watched, callback))))) as Response[];
        const landed = answers.map((answer) => `${answer.status} ${new URL(answer.headers.get("location") ?? "/", services.env.APP_URL).search}`).sort();
        expect(landed, `round ${round}`).toEqual(["302 ?connected=1", "302 ?error=account_already_linked_to_different_user"]);
        const holders = await services.database.db.select({ userId: account.userId }).from(account).where(eq(account.accountId, shared.id));
        expect(holders).toHaveLength(1);
      }
      const written = [...lines, ...printed.mock.calls.map((call) => call.map(String).join(" "))].join("\n");
      expect(written).not.toMatch(/gcm1:|params:|racer-/);
    } finally {
      printed.mockRestore();
    }
  });

  it("brings a connection back with a state nobody started, or one already used, to Connections with the reason in words", async () => {
    // A member holding no X account yet (ann holds one by now).
    const cara = await signedInMember(services, "cara");
    const who = person("x-replayed", "replayed");
    fakes.nextAccount("x", who);
    const request = new Request(page("x"), {
      method: "POST",
      headers: { origin: services.env.APP_URL, cookie: cara.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=connect",
    });
    const started = (await action(routeArgs(services, request, { provider: "x" }))) as Response;
    const back = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" });
    const callback = new Request(back.headers.get("location")!, { headers: { cookie: [cara.cookie, ...cookiesOf(started)].join("; ") } });
    expect(((await authApi(routeArgs(services, callback.clone()))) as Response).headers.get("location")).toContain("connected=1");

    for (const again of [
      callback,
      new Request(`${services.env.APP_URL}/api/auth/callback/x?state=nobody-started-this&code=made-up`, { headers: { cookie: cara.cookie } }),
    ]) {
      const landed = (await authApi(routeArgs(services, again))) as Response;
      expect(landed.status).toBe(302);
      const to = new URL(landed.headers.get("location")!, services.env.APP_URL);
      expect(to.pathname).toBe("/settings/connections");
      const shown = await connectionsList(routeArgs(services, new Request(to, { headers: { cookie: cara.cookie } })));
      expect(shown.connectError).toMatch(/^That connection could not be finished: it took too long, was already used, or was started in another tab\./);
    }
  });

  it("refuses an Instagram personal account in words", async () => {
    const landed = await connect(bob, "instagram", person("ig-personal", "bob_personal", "PERSONAL"));
    expect(landed.searchParams.get("error")).toBe("instagram_personal");
    expect((await view(bob, "instagram", landed.search)).linkError).toContain("professional");
    expect(await services.database.db.select().from(account).where(eq(account.accountId, "ig-personal"))).toEqual([]);
  });

  it("names the scopes a member did not grant, and a check that needs one says to reconnect", async () => {
    await connect(bob, "x", person("x-narrow", "narrow"), { scopes: ["users.read", "tweet.read", "offline.access"] });
    expect((await view(bob, "x")).account?.missingScopes).toEqual(["follows.read", "like.read"]);
    const access = await socialAccess({ db: services.database.db, social: services.env.social, userId: "bob", provider: "x", needs: ["follows.read"] });
    expect(access).toMatchObject({ ok: false, reason: "missing_scope" });
  });

  it("never signs anyone in with a social account", async () => {
    const response = await services.auth.handler(
      new Request(`${services.env.APP_URL}/api/auth/sign-in/social`, {
        method: "POST",
        headers: { origin: services.env.APP_URL, "content-type": "application/json" },
        body: JSON.stringify({ provider: "x", callbackURL: "/dashboard" }),
      }),
    );
    expect(response.status).toBe(403);
  });
});

describe("Discord", () => {
  const discordPerson = (n: number, handle: string) => ({ ...person(`80000000000000${String(n).padStart(4, "0")}`, handle), avatarUrl: "" });
  const post = (member: { cookie: string }, intent: string, svc: Services = services) =>
    action(
      routeArgs(
        svc,
        new Request(page("discord"), {
          method: "POST",
          headers: { origin: svc.env.APP_URL, cookie: member.cookie, "content-type": "application/x-www-form-urlencoded" },
          body: `intent=${intent}`,
        }),
        { provider: "discord" },
      ),
    );

  it("connects with PKCE, names a missing guilds.members.read, keeps one account to one member, and renews the week-long token", async () => {
    const dana = await signedInMember(services, "dana");
    const eve = await signedInMember(services, "eve");
    const who = discordPerson(1, "dana_dc");
    const landed = await connect(dana, "discord", who, { scopes: ["identify", "guilds"] });
    expect(landed.searchParams.get("connected")).toBe("1");
    expect(fakes.tokenRequests.discord.at(-1)).toMatchObject({ grantType: "authorization_code", codeVerifier: true, status: 200 });
    expect((await view(dana, "discord")).account).toMatchObject({ handle: "dana_dc", status: "active", missingScopes: ["guilds.members.read"] });
    const list = await connectionsList(routeArgs(services, new Request(`${services.env.APP_URL}/settings/connections`, { headers: { cookie: dana.cookie } })));
    expect(list.connections.find((c) => c.provider === "discord")).toEqual({
      provider: "discord",
      label: "Discord",
      configured: true,
      handle: "dana_dc",
      status: "active",
    });

    // Reconnecting grants everything; the same account is refused to another member, then waits 30 days once let go.
    await connect(dana, "discord", who);
    expect((await view(dana, "discord")).account?.missingScopes).toEqual([]);
    const refused = await connect(eve, "discord", who);
    expect((await view(eve, "discord", refused.search)).linkError).toBe(
      "This Discord account is already connected to another member. One account belongs to one member.",
    );
    expect(((await post(dana, "disconnect")) as Response).status).toBe(302);
    expect((await connect(eve, "discord", who)).searchParams.get("error")).toBe("relink_wait");

    // Discord's tokens live a week: the next use after that renews it with the (rotating) refresh token.
    await connect(dana, "discord", who);
    const later = new Date(Date.now() + 8 * 86_400_000);
    const access = await socialAccess({ db: services.database.db, social: services.env.social, userId: "dana", provider: "discord", now: later });
    expect(access).toMatchObject({ ok: true });
    expect(fakes.tokenRequests.discord.at(-1)).toMatchObject({ grantType: "refresh_token", status: 200 });
  });

  it("says Discord is not set up on this server without DISCORD_CLIENT_ID, and starts no connection", async () => {
    const { discord: _client, ...providers } = services.env.social.providers;
    const { discord: _on, ...connectable } = services.env.social.connectable;
    const unset = { ...services, env: { ...services.env, social: { ...services.env.social, providers, connectable } } } as Services;
    const shown = await loader(routeArgs(unset, new Request(page("discord"), { headers: { cookie: ann.cookie } }), { provider: "discord" }));
    expect(shown).toMatchObject({ configured: false, account: null });
    const list = await connectionsList(routeArgs(unset, new Request(`${services.env.APP_URL}/settings/connections`, { headers: { cookie: ann.cookie } })));
    expect(list.connections.find((c) => c.provider === "discord")).toMatchObject({ configured: false, handle: null });
    const refused = await post(ann, "connect", unset);
    expect(JSON.stringify(refused)).toContain("Discord is not set up on this server.");
    expect(fakes.tokenRequests.discord).toEqual([]);
  });
});

describe("tokens in use", () => {
  it("refreshes an expiring token before use, and marks the account for reconnecting when the provider refuses", async () => {
    const who = person("yt-refresh", "refresher");
    await connect(ann, "youtube", who);
    const t0 = new Date();
    const first = await socialAccess({ db: services.database.db, social: services.env.social, userId: "ann", provider: "youtube", now: t0 });
    expect(first.ok).toBe(true);
    expect(fakes.tokenRequests.youtube.filter((r) => r.grantType === "refresh_token")).toHaveLength(0);

    const later = new Date(t0.getTime() + 2 * 3600_000);
    const renewed = await socialAccess({ db: services.database.db, social: services.env.social, userId: "ann", provider: "youtube", now: later });
    expect(renewed.ok).toBe(true);
    expect(fakes.tokenRequests.youtube.filter((r) => r.grantType === "refresh_token")).toHaveLength(1);
    // The renewed token is kept (encrypted) for the next use: no second refresh.
    await socialAccess({ db: services.database.db, social: services.env.social, userId: "ann", provider: "youtube", now: later });
    expect(fakes.tokenRequests.youtube.filter((r) => r.grantType === "refresh_token")).toHaveLength(1);

    fakes.revoke("youtube", who.id);
    const muchLater = new Date(t0.getTime() + 4 * 3600_000);
    const refused = await socialAccess({ db: services.database.db, social: services.env.social, userId: "ann", provider: "youtube", now: muchLater });
    expect(refused).toMatchObject({ ok: false, reason: "needs_reconnect" });
    const [profile] = await services.database.db.select().from(socialAccount).where(eq(socialAccount.accountId, who.id));
    expect(profile?.status).toBe("needs_reconnect");
    expect((await view(ann, "youtube")).account).toMatchObject({ status: "needs_reconnect" });

    // Reconnecting makes it work again.
    await connect(ann, "youtube", who);
    expect((await view(ann, "youtube")).account).toMatchObject({ status: "active" });
  });

  it("renews Instagram's 60-day token in its final week, and marks it for reconnecting once Instagram refuses it", async () => {
    const who = person("ig-renew", "renewer", "BUSINESS");
    await connect(bob, "instagram", who);
    const access = (days: number) =>
      socialAccess({
        db: services.database.db,
        social: services.env.social,
        userId: "bob",
        provider: "instagram",
        now: new Date(Date.now() + days * 86_400_000),
      });
    expect((await access(1)).ok).toBe(true);
    expect(fakes.tokenRequests.instagram.map((r) => r.grantType)).toEqual(["authorization_code", "ig_exchange_token"]);
    expect((await access(55)).ok).toBe(true);
    expect(fakes.tokenRequests.instagram.map((r) => r.grantType)).toEqual(["authorization_code", "ig_exchange_token", "ig_refresh_token"]);
    fakes.revoke("instagram", who.id);
    expect(await access(110)).toMatchObject({ ok: false, reason: "needs_reconnect" });
    expect((await view(bob, "instagram")).account).toMatchObject({ status: "needs_reconnect" });
  });

  it("says the provider could not be reached when its token endpoint is down, changing nothing", async () => {
    const who = person("x-down", "downer");
    await connect(bob, "x", who);
    fakes.failNext("x", { kind: "server_error", status: 503 }, { path: new URL(fakes.env.X_TOKEN_URL!).pathname });
    const later = new Date(Date.now() + 3 * 3600_000);
    const answer = await socialAccess({ db: services.database.db, social: services.env.social, userId: "bob", provider: "x", now: later });
    expect(answer).toMatchObject({ ok: false, reason: "unavailable" });
    expect((await view(bob, "x")).account).toMatchObject({ status: "active" });
  });
});
