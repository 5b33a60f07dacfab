import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { user } from "#db/schema/auth";
import { walletProfile } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { RegisteredChain } from "~/modules/chain/chain-registry.server";
import { chainTransport } from "~/wallet/chain-config";
import { startPrunedNode } from "#tests/fakes/pruned-node";
import { localRegistry } from "#tests/setup/local-registry";
import { devWallet } from "#tests/setup/mini-contracts";
import { createTestDatabase } from "#tests/setup/test-db";
import { LOCAL_DEV_FUNDERS } from "./trust-config.server";
import { PROFILE_MAX_AGE_MS, profileWallets } from "./wallet-signals.server";

// profileWallets on a real anvil and database: a farmed wallet's funder and sweep, a wallet a
// shared funder funded, a fresh one, a node that keeps no old state (unknown, with its reason), a
// node that is down (nothing written), and profiles read again only when stale.

let database: Database;
let node: LocalChain;
let client: PublicClient;
let chain: RegisteredChain;
const now = new Date("2026-11-01T12:00:00Z");
const sharedFunders: ReadonlySet<string> = new Set(LOCAL_DEV_FUNDERS.map((a) => a.toLowerCase()));
const test = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(node.url) });
const keys = { funder: generatePrivateKey(), farmed: generatePrivateKey(), shared: generatePrivateKey(), fresh: generatePrivateKey() };
const addressOf = (key: Hex) => privateKeyToAccount(key).address;
const sweepTarget = addressOf(generatePrivateKey());

async function send(key: Hex | null, to: Address, value: bigint) {
  const wallet = key
    ? createWalletClient({ chain: anvil, transport: http(node.url, { retryCount: 0 }), account: privateKeyToAccount(key) })
    : devWallet(node.url, 0);
  const hash = await wallet.sendTransaction({ to, value });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hash;
}

const profileOf = async (key: Hex) =>
  (
    await database.db
      .select()
      .from(walletProfile)
      .where(eq(walletProfile.address, addressOf(key).toLowerCase()))
  )[0];

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  client = createPublicClient({ chain: anvil, transport: http(node.url, { retryCount: 0 }), pollingInterval: 10 });
  chain = localRegistry({ url: node.url, webSocket: null }).get(LOCAL_CHAIN_ID)!;
  const wallets = Object.entries(keys).map(([name, key]) => ({ name, address: addressOf(key) }));
  await database.db.insert(user).values(wallets.map(({ name }) => ({ id: name, email: `${name}@example.com`, name })));
  // Linked as sign-in stores them (checksummed); the fresh one on another chain: profiled on this one all the same.
  await database.db
    .insert(walletAddress)
    .values(
      wallets.map(({ name, address }) => ({ id: randomUUID(), userId: name, address: getAddress(address), chainId: name === "fresh" ? 56 : LOCAL_CHAIN_ID })),
    );
  // A (funder) funds the farmed wallet, which sweeps to B; dev account 0 (a shared funder) funds another.
  await send(null, addressOf(keys.funder), parseEther("5"));
  await send(keys.funder, addressOf(keys.farmed), parseEther("1"));
  await test().mine({ blocks: 12 });
  await send(keys.farmed, sweepTarget, parseEther("0.95"));
  await send(null, addressOf(keys.shared), parseEther("1"));
}, 60_000);
afterAll(async () => {
  await database.close();
  await node.stop();
});

describe("profileWallets", () => {
  it("records each linked wallet's funder, sweep, first activity and transactions sent; the fresh one as never active", async () => {
    expect(await profileWallets({ db: database.db, chain, sharedFunders, now })).toEqual({ profiled: 4, unknown: 0 });
    expect(await profileOf(keys.farmed)).toMatchObject({
      chainId: LOCAL_CHAIN_ID,
      status: "known",
      funder: addressOf(keys.funder).toLowerCase(),
      fundingTx: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      sweptTo: sweepTarget.toLowerCase(),
      sweepTx: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      txCount: 1,
      firstActivityAt: expect.any(Date),
      checkedAt: now,
    });
    // A shared funder is recorded as the funder; the scoring ignores it.
    expect(await profileOf(keys.shared)).toMatchObject({ status: "known", funder: DEV_ADDRESSES[0]!.toLowerCase(), sweptTo: null, txCount: 0 });
    expect(await profileOf(keys.fresh)).toMatchObject({ status: "known", funder: null, sweptTo: null, firstActivityAt: null, txCount: 0, unknownReason: null });
  });

  it("reads a profile again only when it is older than 7 days, or for the addresses asked", async () => {
    expect(await profileWallets({ db: database.db, chain, sharedFunders, now })).toEqual({ profiled: 0, unknown: 0 });
    const later = new Date(now.getTime() + PROFILE_MAX_AGE_MS + 1);
    expect(await profileWallets({ db: database.db, chain, sharedFunders, now: later, addresses: [addressOf(keys.fresh)] })).toEqual({
      profiled: 1,
      unknown: 0,
    });
    expect((await profileOf(keys.fresh))!.checkedAt).toEqual(later);
    expect(await profileWallets({ db: database.db, chain, sharedFunders, now: later, limit: 1 })).toEqual({ profiled: 1, unknown: 0 });
    const checked = await database.db.select({ at: walletProfile.checkedAt }).from(walletProfile);
    expect(checked.filter(({ at }) => at.getTime() === later.getTime())).toHaveLength(2);
  });

  it("leaves a wallet unknown, with the reason, when the node keeps no old state; writes nothing when the node is down", async () => {
    await test().mine({ blocks: 200 });
    const pruned = await startPrunedNode({ target: node.url, keep: 128 });
    // Past the age of every read so far (the test before read one wallet, whichever came first, a week on).
    const later = new Date(now.getTime() + 3 * PROFILE_MAX_AGE_MS);
    try {
      const prunedChain = localRegistry({ url: pruned.url, webSocket: null }).get(LOCAL_CHAIN_ID)!;
      expect(await profileWallets({ db: database.db, chain: prunedChain, sharedFunders, now: later, addresses: [addressOf(keys.farmed)] })).toEqual({
        profiled: 1,
        unknown: 1,
      });
    } finally {
      await pruned.stop();
    }
    // The earlier read's funder and sweep are not kept beside an unknown status.
    expect(await profileOf(keys.farmed)).toMatchObject({
      status: "unknown",
      unknownReason: expect.stringMatching(/archive node/),
      funder: null,
      sweptTo: null,
      txCount: 1,
    });

    const down = localRegistry({ url: "http://127.0.0.1:9", transport: chainTransport(["http://127.0.0.1:9"], { retryCount: 0 }), webSocket: null });
    const muchLater = new Date(later.getTime() + 2 * PROFILE_MAX_AGE_MS);
    await expect(profileWallets({ db: database.db, chain: down.get(LOCAL_CHAIN_ID)!, sharedFunders, now: muchLater })).rejects.toThrow(/could not be reached/);
    const checked = await database.db.select({ at: walletProfile.checkedAt }).from(walletProfile);
    expect(checked.filter(({ at }) => at.getTime() === muchLater.getTime())).toHaveLength(0);
  });
});
