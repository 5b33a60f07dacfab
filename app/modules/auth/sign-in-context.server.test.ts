import { eq, sql } from "drizzle-orm";
import { Wallet } from "ethers";
import { SiweMessage } from "siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailCodeCooldown, session, user } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import { accessContext } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import type { Services } from "~/services/services.server";
import { agentHashOf, networkHashOf } from "~/modules/trust/access-context.server";
import { createTestServices } from "#tests/setup/test-services";
import { CLIENT_IP_HEADER } from "./auth.server";
import { sendSignInEmail, signInWithCode } from "./sign-in.server";

/**
 * The sign-up and sign-in context (the trust signals) as the real sign-in flows leave it: by
 * e-mail code through the app's actions, and by wallet through better-auth's SIWE endpoint.
 */
let services: Services;
const SITE = "http://localhost:3000";
const AGENT = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15";

beforeAll(async () => {
  services = await createTestServices();
});
afterAll(() => services.close());

function browser(ip: string) {
  return new Request(`${SITE}/login`, { method: "POST", headers: { origin: SITE, [CLIENT_IP_HEADER]: ip, "user-agent": AGENT } });
}

async function signInByCode(email: string, ip: string) {
  // As if the 30 seconds between two sign-in e-mails had passed.
  await services.database.db.delete(emailCodeCooldown).where(eq(emailCodeCooldown.email, email));
  expect(await sendSignInEmail(services, { request: browser(ip), email, redirectTo: "/" })).toEqual({ ok: true });
  const mails = await services.database.db.select().from(devMail).where(eq(devMail.to, email));
  const code = /code: (\d{6})/.exec(mails.at(-1)!.text)![1]!;
  const result = await signInWithCode(services, { request: browser(ip), email, code });
  expect(result.ok).toBe(true);
  const [member] = await services.database.db.select().from(user).where(eq(user.email, email));
  return member!.id;
}

/** The member's context rows, sign-ins first, each network once in a fixed order. */
async function contextOf(userId: string) {
  const rows = await services.database.db
    .select()
    .from(accessContext)
    .where(eq(accessContext.userId, userId))
    .orderBy(accessContext.kind, accessContext.networkHash);
  return rows.map((row) => ({ kind: row.kind, networkHash: row.networkHash, agentHash: row.agentHash }));
}

describe("sign-in context", () => {
  it("keeps a new member's sign-up and sign-in as hashes only, once a day per network, and none of it on the session", async () => {
    const { hashKey } = services.env.trust;
    const userId = await signInByCode("context-1@example.com", "203.0.113.40");
    const seen = { networkHash: networkHashOf(hashKey, "203.0.113.0"), agentHash: agentHashOf(hashKey, AGENT) };
    expect(await contextOf(userId)).toEqual([
      { kind: "sign_in", ...seen },
      { kind: "sign_up", ...seen },
    ]);

    await signInByCode("context-1@example.com", "203.0.113.41");
    await signInByCode("context-1@example.com", "::ffff:198.51.100.7");
    const other = networkHashOf(hashKey, "198.51.100.0");
    expect((await contextOf(userId)).map((row) => [row.kind, row.networkHash])).toEqual([
      ...[seen.networkHash, other].sort().map((networkHash) => ["sign_in", networkHash]),
      ["sign_up", seen.networkHash],
    ]);

    const sessions = await services.database.db.select().from(session).where(eq(session.userId, userId));
    expect(sessions).toHaveLength(3);
    expect(sessions.every((row) => row.ipAddress === null && row.userAgent === null)).toBe(true);
  });

  it("keeps a wallet sign-up and sign-in the same way", async () => {
    const wallet = Wallet.createRandom();
    const headers = { origin: SITE, "content-type": "application/json", [CLIENT_IP_HEADER]: "2001:db8:77:1::5", "user-agent": AGENT };
    const nonce = await services.auth.handler(new Request(`${SITE}/api/auth/siwe/nonce`, { method: "POST", headers, body: "{}" }));
    const message = new SiweMessage({
      domain: "localhost:3000",
      address: wallet.address,
      statement: "Sign in to Questline",
      uri: SITE,
      version: "1",
      chainId: 11155111,
      nonce: ((await nonce.json()) as { nonce: string }).nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    const body = JSON.stringify({ message, signature: await wallet.signMessage(message) });
    const verified = await services.auth.handler(new Request(`${SITE}/api/auth/siwe/verify`, { method: "POST", headers, body }));
    expect(verified.status).toBe(200);

    const [linked] = await services.database.db.select().from(walletAddress).where(eq(walletAddress.address, wallet.address));
    const networkHash = networkHashOf(services.env.trust.hashKey, "2001:db8:77::");
    expect((await contextOf(linked!.userId)).map((row) => [row.kind, row.networkHash])).toEqual([
      ["sign_in", networkHash],
      ["sign_up", networkHash],
    ]);
    const [started] = await services.database.db.select().from(session).where(eq(session.userId, linked!.userId));
    expect(started).toMatchObject({ signInMethod: "wallet", ipAddress: null, userAgent: null });
  });

  it("never fails a sign-in when the context cannot be kept", async () => {
    await services.database.db.execute(sql`drop table access_context`);
    const userId = await signInByCode("context-2@example.com", "192.0.2.10");
    expect(await services.database.db.select({ id: session.id }).from(session).where(eq(session.userId, userId))).toHaveLength(1);
  });
});
