import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, gte, like } from "drizzle-orm";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseEther,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { testStablecoinAbi, testStablecoinBytecode } from "#contracts/generated/test-stablecoin";
import { user } from "#db/schema/auth";
import { chainEventCursor } from "#db/schema/chain";
import { deposit, journalEntry } from "#db/schema/ledger";
import { project } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { vaultTokensOf } from "~/modules/chain/chain-registry.server";
import type { VaultToken } from "~/modules/chain/contract-addresses.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { assetOf, questAsset } from "~/modules/ledger/assets";
import { accountBalance, balanceOf, checkLedger, platformBalance, projectTreasury } from "~/modules/ledger/ledger.server";
import { createTestDatabase, emptyTestDatabase } from "#tests/setup/test-db";
import { depositRefOf, ownerOfRef, projectDepositRefOf } from "./deposit-refs.server";
import { listDeposits } from "./deposits.server";
import { DEPOSIT_SUBSCRIPTION, scanDeposits, TOKEN_DEPOSIT_SUBSCRIPTION, type ScanOptions } from "./scanner.server";
import { assignUnmatchedDeposit, unmatchedDeposits } from "./unmatched-deposits.server";

const CHAIN_ID = 31337;
const Q = questAsset(CHAIN_ID);
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };

let chain: LocalChain;
let client: PublicClient;
let vault: Address;
let token: Address;
/** The vault's tokens as the registry lists them: QUEST, then the local stand-in USDC (6 decimals). */
let tokens: VaultToken[];
let usdc: Address;
let database: Database;
/** Where this test's scans start: the block after what earlier tests left on the shared chain. */
let startBlock: bigint;

const testClient = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });
const depositor = (index = 1) => createWalletClient({ chain: anvil, transport: http(chain.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[index]!) });

beforeAll(async () => {
  database = await createTestDatabase();
  chain = await startLocalChain();
  const ensured = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
  vault = ensured.addresses.DepositVault;
  token = ensured.addresses.QuestToken;
  tokens = vaultTokensOf(ensured.addresses, ensured.tokens);
  usdc = ensured.tokens[0]!.address;
  client = createPublicClient({ chain: anvil, transport: http(chain.url), pollingInterval: 10 });
  // Every dev account lets the vault take its tokens (QUEST and USDC) once and for all.
  for (const index of [1, 2, 3]) {
    for (const of of [token, usdc]) {
      const hash = await depositor(index).writeContract({ address: of, abi: questTokenAbi, functionName: "approve", args: [vault, parseEther("1000000")] });
      await client.waitForTransactionReceipt({ hash });
    }
  }
});
afterAll(async () => {
  await chain.stop();
  await database.close();
});

// Each test starts from an empty database: the file's one, emptied (opening one per test was most
// of the file's time, 15 × 1.5–6 s on a busy machine).
beforeEach(async () => {
  await emptyTestDatabase(database.db);
  startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
});

async function member(id: string): Promise<Hex> {
  await database.db.insert(user).values({ id, email: `${id}@example.com`, name: id });
  return depositRefOf({ db: database.db, userId: id });
}

/** The signed deposit transaction, so a test can send it again after a reorg (same hash). */
async function signedDeposit(amount: bigint, ref: Hex, index = 1): Promise<Hex> {
  const wallet = depositor(index);
  const request = await wallet.prepareTransactionRequest({
    to: vault,
    data: encodeFunctionData({ abi: depositVaultAbi, functionName: "deposit", args: [amount, ref] }),
  });
  return wallet.signTransaction(request);
}

/** Deposits on chain (one block each: anvil mines every transaction) and returns the transaction hash. */
async function depositOnChain(amount: bigint, ref: Hex, index = 1): Promise<Hex> {
  const hash = await client.sendRawTransaction({ serializedTransaction: await signedDeposit(amount, ref, index) });
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return hash;
}

const scan = (overrides: Partial<ScanOptions> = {}) =>
  scanDeposits({ db: database.db, chainId: CHAIN_ID, client, vault, asset: Q, confirmations: 2, startBlock, ...overrides });

/** The deposit scanner's cursor on the chain. */
const depositCursor = () =>
  database.db
    .select()
    .from(chainEventCursor)
    .where(and(eq(chainEventCursor.chainId, CHAIN_ID), eq(chainEventCursor.subscription, DEPOSIT_SUBSCRIPTION)));

/** This test's deposits (a scan also re-reads a few blocks before `startBlock`, where earlier tests deposited). */
const rowsOf = () =>
  database.db
    .select()
    .from(deposit)
    .where(gte(deposit.blockNumber, Number(startBlock)))
    .orderBy(deposit.blockNumber, deposit.logIndex);
const entryKeys = async (prefix: string) =>
  (
    await database.db
      .select({ key: journalEntry.idempotencyKey })
      .from(journalEntry)
      .where(like(journalEntry.idempotencyKey, `${prefix}%`))
  ).map((r) => r.key);
const available = async (userId: string) => (await balanceOf({ db: database.db, userId, asset: Q }))[0]?.available ?? 0n;

describe("deposit references", () => {
  it("gives a member one reference, however often and concurrently asked, and finds the member by it", async () => {
    await database.db.insert(user).values({ id: "r", email: "r@example.com", name: "r" });
    const refs = await Promise.all(Array.from({ length: 5 }, () => depositRefOf({ db: database.db, userId: "r" })));
    expect(new Set(refs).size).toBe(1);
    expect(refs[0]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await depositRefOf({ db: database.db, userId: "r" })).toBe(refs[0]);
    expect(await ownerOfRef({ db: database.db, ref: refs[0]! })).toEqual({ userId: "r", projectId: null });
    expect(await ownerOfRef({ db: database.db, ref: refs[0]!.toUpperCase().replace("0X", "0x") as Hex })).toEqual({ userId: "r", projectId: null });
    expect(await ownerOfRef({ db: database.db, ref: `0x${"00".repeat(32)}` })).toBeNull();
  });
});

describe("scanDeposits", () => {
  it("shows a deposit pending with its confirmations, then credits it exactly once", async () => {
    const ref = await member("m");
    const amount = parseEther("12.5");
    const txHash = await depositOnChain(amount, ref);

    expect(await scan()).toEqual({ seen: 1, credited: 0, reorged: 0 });
    const [pending] = await listDeposits({ db: database.db, userId: "m", limit: 10 });
    expect(pending).toMatchObject({ txHash, amount, status: "pending", confirmations: 1, required: 2, creditedAt: null });
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: Q })).toBe(amount);
    expect(await available("m")).toBe(0n);

    await testClient().mine({ blocks: 1 });
    const racing = await Promise.all([scan(), scan()]);
    expect(racing.reduce((sum, result) => sum + result.credited, 0)).toBe(1);
    expect(await scan()).toEqual({ seen: 0, credited: 0, reorged: 0 });

    const [credited] = await listDeposits({ db: database.db, userId: "m", limit: 10 });
    expect(credited).toMatchObject({ status: "credited", confirmations: 2, required: 2 });
    expect(credited!.creditedAt).toBeInstanceOf(Date);
    expect(await available("m")).toBe(amount);
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: Q })).toBe(0n);
    expect(await platformBalance({ db: database.db, name: "onchain", asset: Q })).toBe(-amount);
    expect(await entryKeys("deposit:credit:")).toEqual([`deposit:credit:${CHAIN_ID}:${txHash}:${(await rowsOf())[0]!.logIndex}`]);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("credits a deposit carrying a project's reference to the project's treasury, once", async () => {
    await database.db.insert(user).values({ id: "founder", email: "founder@example.com", name: "founder" });
    await database.db.insert(project).values({ id: "proj", slug: "proj", name: "Proj" });
    const ref = await projectDepositRefOf({ db: database.db, projectId: "proj" });
    expect(await projectDepositRefOf({ db: database.db, projectId: "proj" })).toBe(ref);
    expect(await ownerOfRef({ db: database.db, ref })).toEqual({ userId: null, projectId: "proj" });
    const amount = parseEther("40");
    await depositOnChain(amount, ref);
    expect(await scan()).toEqual({ seen: 1, credited: 0, reorged: 0 });
    await testClient().mine({ blocks: 1 });
    await Promise.all([scan(), scan()]);
    expect(await accountBalance({ db: database.db, account: projectTreasury("proj"), asset: Q })).toBe(amount);
    expect(await entryKeys("deposit:credit:")).toHaveLength(1);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("waits for the configured confirmations", async () => {
    const ref = await member("slow");
    await depositOnChain(parseEther("1"), ref);
    const three = { confirmations: 3 };
    expect((await scan(three)).credited).toBe(0);
    expect((await rowsOf())[0]).toMatchObject({ status: "pending", confirmations: 1, required: 3 });
    await testClient().mine({ blocks: 1 });
    expect((await scan(three)).credited).toBe(0);
    expect((await rowsOf())[0]).toMatchObject({ status: "pending", confirmations: 2 });
    expect(await available("slow")).toBe(0n);
    await testClient().mine({ blocks: 1 });
    expect((await scan(three)).credited).toBe(1);
    expect((await rowsOf())[0]).toMatchObject({ status: "credited", confirmations: 3 });
    expect(await available("slow")).toBe(parseEther("1"));
  });

  it("finishes a run cut short mid-range: every deposit credited once, the cursor past the head", async () => {
    const refs = [await member("a"), await member("b"), await member("c")];
    const amounts = [parseEther("1"), parseEther("2"), parseEther("3")];
    for (const [i, ref] of refs.entries()) await depositOnChain(amounts[i]!, ref, i + 1);
    await testClient().mine({ blocks: 1 });

    // The node stops answering after the head and two chunks' logs (batchSize 1: a chunk per block).
    const proxy = await failingProxy(chain.url, 3);
    try {
      const flaky = createPublicClient({ chain: anvil, transport: http(proxy.url, { retryCount: 0 }) });
      await expect(scan({ client: flaky, confirmations: 1, batchSize: 1 })).rejects.toThrow();
    } finally {
      await proxy.close();
    }
    const cut = await rowsOf();
    expect(cut.map((row) => row.status)).toEqual(["pending", "pending"]);
    const [cursor] = await depositCursor();
    expect(BigInt(cursor!.nextBlock)).toBe(startBlock + 2n);

    expect(await scan({ confirmations: 1, batchSize: 1 })).toEqual({ seen: 1, credited: 3, reorged: 0 });
    expect(await scan({ confirmations: 1, batchSize: 1 })).toEqual({ seen: 0, credited: 0, reorged: 0 });
    expect((await rowsOf()).map((row) => row.status)).toEqual(["credited", "credited", "credited"]);
    for (const [i, id] of ["a", "b", "c"].entries()) expect(await available(id)).toBe(amounts[i]);
    expect(await entryKeys("deposit:seen:")).toHaveLength(3);
    expect(await entryKeys("deposit:credit:")).toHaveLength(3);
    const [after] = await depositCursor();
    expect(BigInt(after!.nextBlock)).toBe((await client.getBlockNumber({ cacheTime: 0 })) + 1n);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("reverses a deposit whose block was reorged out and never credits it", async () => {
    const ref = await member("r");
    const amount = parseEther("5");
    const snapshot = await testClient().snapshot();
    await depositOnChain(amount, ref);
    expect(await scan({ confirmations: 3 })).toEqual({ seen: 1, credited: 0, reorged: 0 });

    await testClient().revert({ id: snapshot });
    await testClient().mine({ blocks: 4 });
    expect(await scan({ confirmations: 3 })).toEqual({ seen: 0, credited: 0, reorged: 1 });
    await testClient().mine({ blocks: 3 });
    expect(await scan({ confirmations: 3 })).toEqual({ seen: 0, credited: 0, reorged: 0 });

    const [row] = await rowsOf();
    expect(row).toMatchObject({ status: "reorged", creditedAt: null });
    expect(await entryKeys(`deposit:reorg:${row!.id}:${row!.blockHash}`)).toHaveLength(1);
    expect(await entryKeys("deposit:credit:")).toEqual([]);
    expect(await available("r")).toBe(0n);
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: Q })).toBe(0n);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("takes a reorged deposit up again when the same transaction lands in a new block", async () => {
    const ref = await member("again");
    const amount = parseEther("7");
    const snapshot = await testClient().snapshot();
    const raw = await signedDeposit(amount, ref);
    const txHash = await client.sendRawTransaction({ serializedTransaction: raw });
    await client.waitForTransactionReceipt({ hash: txHash });
    expect((await scan({ confirmations: 2 })).seen).toBe(1);
    const [first] = await rowsOf();

    // The same transaction at the same height in another block (a later timestamp): below the
    // cursor, so only the re-read of the last blocks finds it.
    const { timestamp } = await client.getBlock({ blockNumber: BigInt(first!.blockNumber) });
    await testClient().revert({ id: snapshot });
    await testClient().setNextBlockTimestamp({ timestamp: timestamp + 60n });
    await client.waitForTransactionReceipt({ hash: await client.sendRawTransaction({ serializedTransaction: raw }) });
    expect(await scan({ confirmations: 2 })).toMatchObject({ seen: 1, credited: 0 });
    const [moved] = await rowsOf();
    expect(moved).toMatchObject({ id: first!.id, txHash, status: "pending", blockNumber: first!.blockNumber });
    expect(moved!.blockHash).not.toBe(first!.blockHash);

    await testClient().mine({ blocks: 1 });
    expect((await scan({ confirmations: 2 })).credited).toBe(1);
    expect(await available("again")).toBe(amount);
    expect(await entryKeys(`deposit:reorg:${first!.id}:${first!.blockHash}`)).toHaveLength(1);
    expect((await entryKeys("deposit:seen:")).filter((key) => key.includes(moved!.blockHash))).toHaveLength(1);
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: Q })).toBe(0n);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("records a deposit with nobody's reference as unmatched and credits nobody", async () => {
    await member("someone");
    await depositOnChain(parseEther("4"), `0x${"ab".repeat(32)}`);
    await testClient().mine({ blocks: 2 });
    expect(await scan()).toEqual({ seen: 0, credited: 0, reorged: 0 });
    const [row] = await rowsOf();
    expect(row).toMatchObject({ status: "unmatched", userId: null, amount: parseEther("4") });
    expect(await database.db.select().from(journalEntry).where(eq(journalEntry.reference, row!.id))).toEqual([]);
    expect(await available("someone")).toBe(0n);
  });
});

describe("unmatched deposits", () => {
  const NOBODY: Hex = `0x${"cd".repeat(32)}`;
  const give = (depositId: string, to: string) => assignUnmatchedDeposit({ db: database.db, depositId, member: to, operatorEmail: "operator@example.com" });

  it("shows who sent one; given to a member, it is credited to them exactly once on the next scan", async () => {
    await member("sender");
    await database.db.update(user).set({ username: "sender" }).where(eq(user.id, "sender"));
    await database.db.insert(walletAddress).values({ id: "w1", userId: "sender", address: depositor(2).account.address, chainId: CHAIN_ID });
    await depositOnChain(parseEther("4"), NOBODY, 2);
    await testClient().mine({ blocks: 2 });
    await scan();
    const [listed] = await unmatchedDeposits({ db: database.db });
    expect(listed).toMatchObject({ amount: parseEther("4"), sender: { label: "@sender" } });

    expect(await give(listed!.id, "@Sender")).toEqual({ ok: true, member: "@sender" });
    expect(await unmatchedDeposits({ db: database.db })).toEqual([]);
    expect(await give(listed!.id, "sender")).toEqual({ ok: false, code: "conflict", message: expect.stringMatching(/no longer unmatched/) });
    expect(await scan()).toMatchObject({ credited: 1 });
    expect(await scan()).toMatchObject({ credited: 0 });
    expect(await available("sender")).toBe(parseEther("4"));
    const [seen] = await database.db.select().from(journalEntry).where(eq(journalEntry.kind, "deposit_seen"));
    expect(seen?.memo).toBe("Assigned to @sender (sender) by operator operator@example.com");
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("refuses a member nobody is, and changes nothing", async () => {
    await depositOnChain(parseEther("2"), NOBODY);
    await scan();
    const [listed] = await unmatchedDeposits({ db: database.db });
    expect(listed?.sender).toBeNull();
    expect(await give(listed!.id, "ghost@example.com")).toEqual({
      ok: false,
      code: "invalid",
      errors: { member: "No member has that e-mail, username or wallet." },
    });
    expect(await give("dep_missing", "ghost@example.com")).toMatchObject({ ok: false, code: "invalid", errors: { member: expect.any(String) } });
    expect((await rowsOf())[0]).toMatchObject({ status: "unmatched", userId: null });
    expect(await database.db.select().from(journalEntry)).toEqual([]);
  });

  it("gives a deposit once when two operators give it at the same time", async () => {
    await member("a");
    await member("b");
    await depositOnChain(parseEther("3"), NOBODY);
    await testClient().mine({ blocks: 2 });
    await scan();
    const [listed] = await unmatchedDeposits({ db: database.db });
    await database.db.insert(walletAddress).values({ id: "wb", userId: "b", address: depositor(3).account.address, chainId: CHAIN_ID });
    const results = await Promise.all([give(listed!.id, "a@example.com"), give(listed!.id, depositor(3).account.address.toUpperCase().replace("0X", "0x"))]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    await scan();
    expect((await available("a")) + (await available("b"))).toBe(parseEther("3"));
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });
});

/** A loopback JSON-RPC proxy in front of `target` that answers 503 from its `failAfter`+1-th request on. */
async function failingProxy(target: string, failAfter: number): Promise<{ url: string; close: () => Promise<void> }> {
  let served = 0;
  const server: Server = createServer((req, res) => {
    if (++served > failAfter) {
      res.writeHead(503).end("node unavailable");
      return;
    }
    const upstream = httpRequest(target, { method: req.method, headers: { "content-type": "application/json" } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { "content-type": "application/json" });
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("scanDeposits of the vault's other tokens (TokenDeposited)", () => {
  const U = assetOf("USDC", CHAIN_ID);
  const usdcUnits = (whole: number) => BigInt(whole) * 10n ** 6n;
  const scanTokens = (overrides: Partial<ScanOptions> = {}) => scan({ tokens, ...overrides });
  const availableOf = async (userId: string, asset = U) => (await balanceOf({ db: database.db, userId, asset }))[0]?.available ?? 0n;

  async function depositTokenOnChain(of: Address, amount: bigint, ref: Hex, index = 1): Promise<Hex> {
    const hash = await depositor(index).writeContract({ address: vault, abi: depositVaultAbi, functionName: "depositToken", args: [of, amount, ref] });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    return hash;
  }

  it("credits a USDC deposit once, in USDC:31337 and its own 6 decimals, after the confirmations", async () => {
    const ref = await member("u");
    const amount = usdcUnits(25) + 500_000n; // 25.5 USDC
    const txHash = await depositTokenOnChain(usdc, amount, ref);

    expect(await scanTokens()).toEqual({ seen: 1, credited: 0, reorged: 0 });
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: U })).toBe(amount);
    await testClient().mine({ blocks: 1 });
    const racing = await Promise.all([scanTokens(), scanTokens()]);
    expect(racing.reduce((sum, result) => sum + result.credited, 0)).toBe(1);
    expect(await scanTokens()).toEqual({ seen: 0, credited: 0, reorged: 0 });

    const [row] = await rowsOf();
    expect(row).toMatchObject({ txHash, asset: U, amount, status: "credited", userId: "u" });
    expect(await availableOf("u")).toBe(amount);
    expect(await availableOf("u", Q)).toBe(0n);
    expect(await platformBalance({ db: database.db, name: "onchain", asset: U })).toBe(-amount);
    expect(await entryKeys("deposit:credit:")).toEqual([`deposit:credit:${CHAIN_ID}:${txHash}:${row!.logIndex}`]);
    // Its own cursor, beside the QUEST deposits' one.
    const cursors = await database.db.select().from(chainEventCursor).where(eq(chainEventCursor.chainId, CHAIN_ID));
    expect(cursors.map((cursor) => cursor.subscription).sort()).toEqual([DEPOSIT_SUBSCRIPTION, TOKEN_DEPOSIT_SUBSCRIPTION].sort());
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("credits QUEST deposited through depositToken as QUEST, and reads no TokenDeposited without a token list", async () => {
    const ref = await member("q");
    await depositTokenOnChain(token, parseEther("3"), ref);
    await testClient().mine({ blocks: 1 });
    expect(await scan()).toEqual({ seen: 0, credited: 0, reorged: 0 });
    expect(await scanTokens()).toMatchObject({ seen: 1, credited: 1 });
    expect(await availableOf("q", Q)).toBe(parseEther("3"));
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("reverses a USDC deposit whose block was reorged out and never credits it", async () => {
    const ref = await member("ur");
    const snapshot = await testClient().snapshot();
    await depositTokenOnChain(usdc, usdcUnits(5), ref);
    expect(await scanTokens({ confirmations: 3 })).toEqual({ seen: 1, credited: 0, reorged: 0 });

    await testClient().revert({ id: snapshot });
    await testClient().mine({ blocks: 4 });
    expect(await scanTokens({ confirmations: 3 })).toEqual({ seen: 0, credited: 0, reorged: 1 });
    await testClient().mine({ blocks: 3 });
    expect(await scanTokens({ confirmations: 3 })).toEqual({ seen: 0, credited: 0, reorged: 0 });

    const [row] = await rowsOf();
    expect(row).toMatchObject({ asset: U, status: "reorged", creditedAt: null });
    expect(await entryKeys("deposit:credit:")).toEqual([]);
    expect(await availableOf("ur")).toBe(0n);
    expect(await platformBalance({ db: database.db, name: "deposits_in_transit", asset: U })).toBe(0n);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("leaves out a deposit of a token the chain's list does not name, though the vault took it", async () => {
    const ref = await member("x");
    // Another 6-decimal token the operator allow-listed in the vault, but no deployment file names.
    const deployer = depositor(0);
    const created = await client.waitForTransactionReceipt({
      hash: await deployer.deployContract({ abi: testStablecoinAbi, bytecode: testStablecoinBytecode, args: [depositor(1).account.address, usdcUnits(100)] }),
    });
    const unlisted = created.contractAddress!;
    const operator = createWalletClient({ chain: anvil, transport: http(chain.url), account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) });
    await client.waitForTransactionReceipt({
      hash: await operator.writeContract({ address: vault, abi: depositVaultAbi, functionName: "setTokenAllowed", args: [unlisted, true] }),
    });
    await client.waitForTransactionReceipt({
      hash: await depositor(1).writeContract({ address: unlisted, abi: testStablecoinAbi, functionName: "approve", args: [vault, usdcUnits(100)] }),
    });
    startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    await depositTokenOnChain(unlisted, usdcUnits(10), ref);
    await testClient().mine({ blocks: 2 });

    expect(await scanTokens()).toEqual({ seen: 0, credited: 0, reorged: 0 });
    expect(await rowsOf()).toEqual([]);
    expect(await database.db.select().from(journalEntry)).toEqual([]);
  });
});
