import { count, eq } from "drizzle-orm";
import { Wallet, type HDNodeWallet } from "ethers";
import { SiweMessage } from "siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import { walletAddress } from "#db/schema/wallets";
import type { Services } from "~/services/services.server";
import { sendSignInEmail, signInWithCode } from "~/modules/auth/sign-in.server";
import { failureMessage } from "~/lib/result";
import { browserRequest, createTestServices } from "#tests/setup/test-services";
import { listWallets } from "./wallets.server";

/**
 * Wallet sign-in over HTTP, with messages built and signed by an independent EIP-4361
 * implementation (the `siwe` package and an ethers signer).
 */
let services: Services;
const SITE = "http://localhost:3000";
const SEPOLIA = 11155111;

beforeAll(async () => {
  services = await createTestServices();
});
afterAll(() => services.close());

async function call(path: string, body?: unknown, cookie?: string) {
  const response = await services.auth.handler(
    new Request(`${SITE}/api/auth${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        origin: SITE,
        "content-type": "application/json",
        "x-questline-client-ip": "10.2.0.1",
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  return {
    status: response.status,
    json,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

async function freshNonce() {
  const { status, json } = await call("/siwe/nonce", {});
  expect(status).toBe(200);
  return json!.nonce as string;
}

async function signedMessage(wallet: Signer, fields: Partial<ConstructorParameters<typeof SiweMessage>[0] & object> = {}, signer: Signer = wallet) {
  const now = Date.now();
  const message = new SiweMessage({
    domain: "localhost:3000",
    address: wallet.address,
    statement: "Sign in to Questline",
    uri: SITE,
    version: "1",
    chainId: SEPOLIA,
    nonce: await freshNonce(),
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + 10 * 60_000).toISOString(),
    ...fields,
  }).prepareMessage();
  return { message, signature: await signer.signMessage(message) };
}

type Signer = Wallet | HDNodeWallet;

const memberCount = async () => (await services.database.db.select({ n: count() }).from(user))[0]!.n;

describe("wallet sign-in", () => {
  it("creates a member on first sign-in, sets the session, and remembers the wallet and the method", async () => {
    const wallet = Wallet.createRandom();
    const result = await call("/siwe/verify", await signedMessage(wallet));
    expect(result.status).toBe(200);
    expect(result.cookie).toContain("session_token=");
    const [row] = await services.database.db.select().from(walletAddress).where(eq(walletAddress.address, wallet.address));
    expect(row).toMatchObject({ chainId: SEPOLIA, isPrimary: true });
    const [started] = await services.database.db.select().from(session).where(eq(session.userId, row!.userId));
    expect(started?.signInMethod).toBe("wallet");

    const again = await call("/siwe/verify", await signedMessage(wallet));
    expect(again.status).toBe(200);
    expect((again.json!.user as { id: string }).id).toBe(row!.userId);
  });

  const refusals: [string, (wallet: Signer) => Promise<{ message: string; signature: string }>, RegExp][] = [
    ["a message for another domain", (w) => signedMessage(w, { domain: "evil.example" }), /domain, address, or chain ID/],
    ["a message whose URI names another site", (w) => signedMessage(w, { uri: "https://evil.example/login" }), /another site \(URI\)/],
    ["a message for an unsupported chain", (w) => signedMessage(w, { chainId: 424242 }), /chain 424242 is not supported/],
    [
      "an expired message",
      (w) =>
        signedMessage(w, {
          issuedAt: new Date(Date.now() - 20 * 60_000).toISOString(),
          expirationTime: new Date(Date.now() - 60_000).toISOString(),
        }),
      /expired/,
    ],
    ["a message not valid yet", (w) => signedMessage(w, { notBefore: new Date(Date.now() + 3_600_000).toISOString() }), /not (yet )?valid/],
    [
      "a message with a tampered statement",
      async (w) => {
        const signed = await signedMessage(w);
        return { ...signed, message: signed.message.replace("Sign in to Questline", "Sign in to Questline and pay") };
      },
      /signature/,
    ],
    ["a signature from another wallet", (w) => signedMessage(w, {}, Wallet.createRandom()), /signature/],
    ["a garbage signature", async (w) => ({ ...(await signedMessage(w)), signature: "0x1234" }), /signature/],
  ];

  for (const [name, make, reason] of refusals) {
    it(`refuses ${name} with 401 and creates nothing`, async () => {
      const before = await memberCount();
      const result = await call("/siwe/verify", await make(Wallet.createRandom()));
      expect(result.status).toBe(401);
      expect(String(result.json?.message)).toMatch(reason);
      expect(result.cookie).not.toContain("session_token=");
      expect(await memberCount()).toBe(before);
    });
  }

  it("refuses a replayed nonce", async () => {
    const wallet = Wallet.createRandom();
    const signed = await signedMessage(wallet);
    expect((await call("/siwe/verify", signed)).status).toBe(200);
    const replay = await call("/siwe/verify", signed);
    expect(replay.status).toBe(401);
    expect(String(replay.json?.message)).toMatch(/Invalid or expired nonce/);
  });

  it("refuses a nonce the server never issued", async () => {
    const wallet = Wallet.createRandom();
    const message = new SiweMessage({
      domain: "localhost:3000",
      address: wallet.address,
      uri: SITE,
      version: "1",
      chainId: SEPOLIA,
      nonce: "madeUpNonce123",
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    const result = await call("/siwe/verify", { message, signature: await wallet.signMessage(message) });
    expect(result.status).toBe(401);
  });
});

describe("linked wallets", () => {
  async function emailMember(email: string) {
    const request = () => browserRequest(services);
    expect(await sendSignInEmail(services, { request: request(), email, redirectTo: "/" })).toEqual({ ok: true });
    const mails = await services.database.db.select().from(devMail).where(eq(devMail.to, email));
    const code = /code: (\d{6})/.exec(mails.at(-1)!.text)![1]!;
    const result = await signInWithCode(services, { request: request(), email, code });
    if (!result.ok) throw new Error(failureMessage(result));
    return result.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  it("lets a signed-in member link a wallet, on each chain it signs for", async () => {
    const cookie = await emailMember("linker@example.com");
    const wallet = Wallet.createRandom();
    expect((await call(`/wallet/session?address=${wallet.address}&chainId=${SEPOLIA}`, undefined, cookie)).json).toEqual({ signed: false });

    const linked = await call("/wallet/link", await signedMessage(wallet), cookie);
    expect(linked.status).toBe(200);
    expect(linked.json).toMatchObject({ newWallet: true, chainId: SEPOLIA });
    expect((await call(`/wallet/session?address=${wallet.address.toLowerCase()}&chainId=${SEPOLIA}`, undefined, cookie)).json).toEqual({
      signed: true,
    });
    expect((await call(`/wallet/session?address=${wallet.address}&chainId=56`, undefined, cookie)).json).toEqual({ signed: false });
    const onBsc = await call("/wallet/link", await signedMessage(wallet, { chainId: 56 }), cookie);
    expect(onBsc.status).toBe(200);
    expect(onBsc.json, "the same wallet on another network").toMatchObject({ newWallet: false, chainId: 56 });

    const [me] = await services.database.db.select().from(user).where(eq(user.email, "linker@example.com"));
    expect(await listWallets({ db: services.database.db, userId: me!.id })).toEqual([
      expect.objectContaining({ address: wallet.address, chainIds: [SEPOLIA, 56], isPrimary: true }),
    ]);

    // Signing in with that wallet later signs in as this member.
    const signIn = await call("/siwe/verify", await signedMessage(wallet));
    expect((signIn.json!.user as { id: string }).id).toBe(me!.id);
  });

  it("refuses to link a wallet that belongs to someone else, or with a bad signature", async () => {
    const owner = Wallet.createRandom();
    expect((await call("/siwe/verify", await signedMessage(owner))).status).toBe(200);
    const cookie = await emailMember("thief@example.com");
    const taken = await call("/wallet/link", await signedMessage(owner), cookie);
    expect(taken.status).toBe(409);
    expect(taken.json?.message).toBe("This wallet is linked to another account");
    const forged = await call("/wallet/link", await signedMessage(Wallet.createRandom(), {}, owner), cookie);
    expect(forged.status).toBe(401);
    expect((await call("/wallet/link", await signedMessage(Wallet.createRandom()))).status).toBe(401);
  });

  it("refuses to unlink a member's last way to sign in", async () => {
    const wallet = Wallet.createRandom();
    const signedIn = await call("/siwe/verify", await signedMessage(wallet));
    const last = await call("/wallet/unlink", { address: wallet.address }, signedIn.cookie);
    expect(last.status).toBe(400);
    expect(last.json?.message).toBe("This wallet is your only way to sign in. Add an e-mail or another wallet first.");

    const second = Wallet.createRandom();
    expect((await call("/wallet/link", await signedMessage(second), signedIn.cookie)).status).toBe(200);
    expect((await call("/wallet/unlink", { address: wallet.address }, signedIn.cookie)).status).toBe(200);
    const userId = (signedIn.json!.user as { id: string }).id;
    expect(await listWallets({ db: services.database.db, userId })).toEqual([expect.objectContaining({ address: second.address, isPrimary: true })]);
  });

  it("lets an e-mail member unlink their only wallet", async () => {
    const cookie = await emailMember("keeper@example.com");
    const wallet = Wallet.createRandom();
    expect((await call("/wallet/link", await signedMessage(wallet), cookie)).status).toBe(200);
    expect((await call("/wallet/unlink", { address: wallet.address }, cookie)).status).toBe(200);
  });
});
