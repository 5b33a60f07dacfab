import { and, eq, inArray, ne, sql } from "drizzle-orm";
import {
  encodeFunctionData,
  keccak256,
  parseTransaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type TransactionSerializable,
  type Transport,
  type WalletClient,
} from "viem";
import { LIVE_OPERATOR_TX_STATES, operatorTx } from "#db/schema/chain";
import { rowsOf, type Db } from "~/lib/db.server";
import { isNodeUnreachable } from "./node-errors.server";

/**
 * The operator's outbox (decision 055): every transaction the platform signs goes through here,
 * whatever it is for (a withdrawal, an airdrop round's step, a sweep). A feature only builds its
 * call and, later, settles what the chain shows:
 *
 * 1. `prepareOperatorCall`, with no database transaction open: the call is simulated (a refusal is
 *    thrown for the caller to put in words), gas and fees are estimated, and the node's pending
 *    nonce, latest block and genesis are read.
 * 2. `storeOperatorTx`, inside the caller's transaction and without any node call: the chain's
 *    signer lock, the next nonce of the (chain, signer) sequence (past the node's pending count and
 *    every stored transaction that may still land), the signature, and the row, unique per intent.
 *    The caller commits, and only then broadcasts (`broadcastOperatorTx`).
 * 3. `followOperatorTxs`, each run of the chain's outbox follower job (`followOperatorOutbox`): every live transaction is
 *    followed to the confirmation depth (back to `broadcast` when a reorg drops its block), one the
 *    node lost is broadcast again after `rebroadcastAfterMs`, one stuck unmined in the node's pool
 *    after `bumpAfterMs` is signed again with the same nonce and a higher fee, and one whose nonce
 *    another transaction took is `replaced`. No database transaction waits on a node.
 */

export type OperatorWallet = WalletClient<Transport, Chain, Account>;

/** The operator on one chain: the node it reads through, the wallet that signs, and how deep is final. */
export type OperatorSigner = { chainId: number; client: PublicClient; wallet: OperatorWallet; confirmations: number };

/** A contract call, as viem takes it. */
export type OperatorCall = { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };

export type PreparedCall = {
  request: Awaited<ReturnType<OperatorWallet["prepareTransactionRequest"]>>;
  /** The node's count of the operator's transactions, pending ones included, when prepared. */
  pendingNonce: number;
  /** The latest block when prepared: what the transaction's effects are looked for from. */
  block: bigint;
  /** The chain's genesis block hash: a chain started afresh has another. */
  genesis: Hex;
};

export type OperatorTx = typeof operatorTx.$inferSelect;

export type OutboxTiming = {
  now: Date;
  /** A broadcast transaction the node no longer knows is broadcast again after this long. */
  rebroadcastAfterMs: number;
  /** A broadcast transaction still unmined in the node's pool after this long is replaced with a higher fee. */
  bumpAfterMs: number;
  /** A transaction whose following threw (left as it was, for the next run). */
  onError?: (intentKey: string, error: unknown) => void;
};

export type OutboxSummary = { included: number; confirmed: number; replaced: number; failed: number; rebroadcast: number; bumped: number };

/** How long a job that signs lets its transactions wait, as its caller configures it (WITHDRAWAL_TIMEOUT_MS, OPERATOR_BUMP_AFTER_MS). */
export type OutboxWaits = {
  /** A broadcast transaction the node lost is broadcast again after this long (10 minutes unless given). */
  timeoutMs?: number;
  /** A broadcast transaction still unmined after this long is replaced with a higher fee (2 minutes unless given). */
  bumpAfterMs?: number;
};

/** The timing of one run of `followOperatorTxs`, from a job's waits. */
export const outboxTiming = (
  now: Date,
  { timeoutMs = 10 * 60 * 1000, bumpAfterMs = 2 * 60 * 1000 }: OutboxWaits,
  onError?: OutboxTiming["onError"],
): OutboxTiming => ({
  now,
  rebroadcastAfterMs: timeoutMs,
  bumpAfterMs,
  onError,
});

export const NONCE_TAKEN = "Another transaction used the operator's nonce, so this one can never land.";
export const REVERTED = "The transaction was mined but refused by the contract.";
export const CHAIN_STARTED_AFRESH = "The chain has been started afresh since this was signed: it is not on the chain any more.";

/** The advisory lock class ("WD") under which a chain's operator signs, across processes. */
const SIGNER_LOCK = 0x5744;

/** The hash of a chain's genesis block: a chain started afresh has another. */
export const genesisOf = async (client: PublicClient): Promise<Hex> => (await client.getBlock({ blockNumber: 0n })).hash;

/** Step 1, outside any database transaction: simulates `call` (throwing its refusal), then fills in its gas and fees. */
export async function prepareOperatorCall({ client, wallet }: Pick<OperatorSigner, "client" | "wallet">, call: OperatorCall): Promise<PreparedCall> {
  const { account } = wallet;
  await client.simulateContract({ account, ...call } as Parameters<PublicClient["simulateContract"]>[0]);
  const [request, pendingNonce, block, genesis] = await Promise.all([
    wallet.prepareTransactionRequest({
      account,
      chain: wallet.chain,
      to: call.address,
      data: encodeFunctionData(call as Parameters<typeof encodeFunctionData>[0]),
      // The nonce is chosen under the signer lock, in step 2.
      parameters: ["chainId", "fees", "gas", "type"],
    }),
    client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    client.getBlockNumber(),
    genesisOf(client),
  ]);
  return { request, pendingNonce, block, genesis };
}

/** Takes the chain's signer lock for the rest of the caller's transaction. */
export async function lockOperatorSigner(tx: Db, chainId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SIGNER_LOCK}, ${chainId})`);
}

/**
 * Step 2, in the caller's transaction: signs `prepared` with the next nonce and stores it under
 * `intentKey`. No node is asked anything. An intent already stored is refused (the unique key).
 */
export async function storeOperatorTx(
  tx: Db,
  { chainId, wallet }: Pick<OperatorSigner, "chainId" | "wallet">,
  { intentKey, prepared }: { intentKey: string; prepared: PreparedCall },
): Promise<OperatorTx> {
  await lockOperatorSigner(tx, chainId);
  const signer = wallet.account.address;
  const nonce = Math.max(prepared.pendingNonce, (await lastLiveNonce(tx, chainId, signer, prepared.genesis)) + 1);
  const rawTx = await sign(wallet, { ...prepared.request, nonce } as TransactionSerializable);
  const [row] = await tx
    .insert(operatorTx)
    .values({
      intentKey,
      chainId,
      genesisHash: prepared.genesis,
      signer,
      toAddress: prepared.request.to ?? "",
      data: prepared.request.data ?? "0x",
      value: prepared.request.value ?? 0n,
      nonce,
      rawTx,
      txHash: keccak256(rawTx),
      fromBlock: Number(prepared.block),
    })
    .returning();
  return row!;
}

async function sign(wallet: OperatorWallet, transaction: TransactionSerializable): Promise<Hex> {
  const { account } = wallet;
  if (!account.signTransaction) throw new Error("The operator's account cannot sign transactions locally");
  return account.signTransaction(transaction as Parameters<NonNullable<Account["signTransaction"]>>[0], {
    serializer: wallet.chain.serializers?.transaction,
  });
}

/** The highest nonce of the signer's stored transactions on this run of the chain that may still land, or -1. */
async function lastLiveNonce(tx: Db, chainId: number, signer: string, genesis: string): Promise<number> {
  const [row] = rowsOf(
    await tx.execute(sql`
      select max(${operatorTx.nonce}) as stored from ${operatorTx}
      where ${operatorTx.chainId} = ${chainId} and ${operatorTx.signer} = ${signer} and ${operatorTx.genesisHash} = ${genesis}
        and ${operatorTx.state} in ('stored', 'broadcast', 'included')`),
  );
  return row?.stored === null || row?.stored === undefined ? -1 : Number(row.stored);
}

/** The transaction stored for an intent, if any. */
export async function operatorTxOf(db: Db, intentKey: string): Promise<OperatorTx | undefined> {
  const [row] = await db.select().from(operatorTx).where(eq(operatorTx.intentKey, intentKey));
  return row;
}

const ALREADY_KNOWN = /already known|known transaction|already imported|already exists|nonce too low/i;
const UNDERPRICED = /underpriced|fee too low|less than (the )?block base fee|max fee per gas less than/i;

/**
 * Hands a stored transaction to the node. Accepted, or one it already knows → `broadcast`. A node
 * that does not answer leaves it as it was (it may be in a mempool); another refusal is left for
 * `followOperatorTxs` to settle by what the chain shows.
 */
export async function broadcastOperatorTx(db: Db, client: PublicClient, row: Pick<OperatorTx, "id" | "rawTx">, now: Date) {
  try {
    await client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (error) {
    if (isNodeUnreachable(error)) return "unreachable" as const;
    if (!ALREADY_KNOWN.test(error instanceof Error ? error.message : String(error))) return "refused" as const;
  }
  await db
    .update(operatorTx)
    .set({ state: "broadcast", broadcastAt: now, updatedAt: now })
    .where(and(eq(operatorTx.id, row.id), eq(operatorTx.state, "stored")));
  return "accepted" as const;
}

/**
 * Step 3: follows every live transaction of the signer on the chain (see the top of the file).
 * A transaction's node reads happen with no database transaction open; each change is written
 * on the condition that the row is still as read, so two runs at once change it once.
 */
export async function followOperatorTxs(db: Db, signer: OperatorSigner, timing: OutboxTiming): Promise<OutboxSummary> {
  const summary: OutboxSummary = { included: 0, confirmed: 0, replaced: 0, failed: 0, rebroadcast: 0, bumped: 0 };
  const address = signer.wallet.account.address;
  const live = () => and(eq(operatorTx.chainId, signer.chainId), inArray(operatorTx.state, [...LIVE_OPERATOR_TX_STATES]));
  const [any] = await db.select({ id: operatorTx.id }).from(operatorTx).where(live()).limit(1);
  if (!any) return summary;
  let genesis: Hex;
  try {
    genesis = await genesisOf(signer.client);
  } catch (error) {
    // A node that does not answer: everything stays as it is, for the next run.
    if (isNodeUnreachable(error)) return summary;
    throw error;
  }
  await adoptEarlierRows(db, signer.chainId, address, genesis);
  const elsewhere = await db
    .update(operatorTx)
    .set({ state: "failed", failure: CHAIN_STARTED_AFRESH, updatedAt: timing.now })
    .where(and(live(), ne(operatorTx.genesisHash, genesis)))
    .returning({ id: operatorTx.id });
  summary.failed += elsewhere.length;
  const rows = await db
    .select()
    .from(operatorTx)
    .where(and(live(), eq(operatorTx.signer, address)))
    .orderBy(operatorTx.nonce);
  for (const row of rows) {
    try {
      await followOne(db, signer, row, timing, summary);
    } catch (error) {
      if (isNodeUnreachable(error)) return summary;
      timing.onError?.(row.intentKey, error);
    }
  }
  return summary;
}

/** A chain as the follower job takes it: its node, its operator's wallet (null where no key is configured) and how deep is final. */
export type OutboxChain = { client: PublicClient; operator: OperatorWallet | null; confirmations: number };

/**
 * The outbox follower job's run on one chain (queue `operator-outbox`, one job per chain, fed by
 * each worker's ticker and the chain's new heads): `followOperatorTxs` for the chain's operator.
 * It is the only place receipts are followed; the features that sign (withdrawals, airdrop
 * rounds) settle from the state it leaves in the outbox, and a test that needs receipts followed
 * runs this too.
 */
export async function followOperatorOutbox({
  db,
  chainId,
  chain,
  now = new Date(),
  onError,
  ...waits
}: { db: Db; chainId: number; chain: OutboxChain; now?: Date; onError?: OutboxTiming["onError"] } & OutboxWaits): Promise<OutboxSummary> {
  if (!chain.operator) return { included: 0, confirmed: 0, replaced: 0, failed: 0, rebroadcast: 0, bumped: 0 };
  const signer: OperatorSigner = { chainId, client: chain.client, wallet: chain.operator, confirmations: chain.confirmations };
  return followOperatorTxs(db, signer, outboxTiming(now, waits, onError));
}

/**
 * Transactions signed before the outbox existed were moved into it without their signer and
 * genesis (db/migrations/0021): they are the chain's operator's, on the chain as it runs now.
 */
async function adoptEarlierRows(db: Db, chainId: number, signer: string, genesis: string) {
  await db
    .update(operatorTx)
    .set({ signer, genesisHash: genesis })
    .where(and(eq(operatorTx.chainId, chainId), eq(operatorTx.signer, "")));
}

async function followOne(db: Db, signer: OperatorSigner, row: OperatorTx, timing: OutboxTiming, summary: OutboxSummary) {
  const { client } = signer;
  const still = (...states: OperatorTx["state"][]) => and(eq(operatorTx.id, row.id), eq(operatorTx.txHash, row.txHash), inArray(operatorTx.state, states));
  const mined = await minedReceipt(client, row);
  if (mined) {
    // Not the client's cached number: run on a new head, the follower must see that head.
    const tip = await client.getBlockNumber({ cacheTime: 0 });
    const deep = tip - mined.blockNumber + 1n >= BigInt(signer.confirmations);
    const state = !deep ? "included" : mined.status === "success" ? "confirmed" : "failed";
    if (state === row.state && Number(mined.blockNumber) === row.includedBlock) return;
    const changed = await db
      .update(operatorTx)
      .set({
        state,
        txHash: mined.transactionHash,
        includedBlock: Number(mined.blockNumber),
        failure: state === "failed" ? REVERTED : null,
        updatedAt: timing.now,
      })
      .where(still(row.state))
      .returning({ id: operatorTx.id });
    if (changed.length > 0) summary[state === "included" ? "included" : state === "confirmed" ? "confirmed" : "failed"] += 1;
    return;
  }
  const minedCount = await client.getTransactionCount({ address: signer.wallet.account.address, blockTag: "latest" });
  if (minedCount > row.nonce) {
    // The nonce is used and none of ours has a receipt: asked once more, in case ours was mined in between.
    if (await minedReceipt(client, row)) return;
    const replaced = await db
      .update(operatorTx)
      .set({ state: "replaced", failure: NONCE_TAKEN, updatedAt: timing.now })
      .where(still(row.state))
      .returning({ id: operatorTx.id });
    summary.replaced += replaced.length;
    return;
  }
  if (row.state === "included") {
    // Its block was dropped by a reorg: back in the pool (or lost), followed as broadcast.
    await db.update(operatorTx).set({ state: "broadcast", includedBlock: null, updatedAt: timing.now }).where(still("included"));
    row = { ...row, state: "broadcast" };
  }
  // A stored transaction is broadcast by the feature that stored it (it may be holding it back).
  if (row.state !== "broadcast") return;
  const waited = timing.now.getTime() - (row.broadcastAt?.getTime() ?? 0);
  // In the pool under any of its signed forms (a replacement the node refused leaves the one before).
  const pooled = (await Promise.all([row.txHash, ...row.earlierHashes].map((hash) => inPool(client, hash as Hex)))).some(Boolean);
  if (!pooled && waited >= timing.rebroadcastAfterMs) {
    try {
      await client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
    } catch (error) {
      if (isNodeUnreachable(error)) return;
      const message = error instanceof Error ? error.message : String(error);
      // A node that dropped it for paying less than blocks now ask: it goes again with a higher fee.
      if (UNDERPRICED.test(message)) {
        if (await bumpFee(db, signer, row, timing.now)) summary.bumped += 1;
        return;
      }
      if (!ALREADY_KNOWN.test(message)) throw error;
    }
    await db.update(operatorTx).set({ broadcastAt: timing.now, updatedAt: timing.now }).where(still("broadcast"));
    summary.rebroadcast += 1;
    return;
  }
  if (pooled && waited >= timing.bumpAfterMs && (await bumpFee(db, signer, row, timing.now))) summary.bumped += 1;
}

/** The receipt of whichever of the transaction's signed forms was mined, or null. */
async function minedReceipt(client: PublicClient, row: Pick<OperatorTx, "txHash" | "earlierHashes">): Promise<TransactionReceipt | null> {
  for (const hash of [row.txHash, ...row.earlierHashes]) {
    try {
      return await client.getTransactionReceipt({ hash: hash as Hex });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return null;
}

/** Whether the node holds the transaction (in its pool; a mined one has a receipt and is not asked about). */
async function inPool(client: PublicClient, hash: Hex): Promise<boolean> {
  try {
    await client.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}

/** A fee raised by an eighth, rounded up: more than the tenth nodes ask of a replacement. */
const raised = (fee: bigint) => fee + (fee + 7n) / 8n;

/**
 * Signs the stuck transaction again with the same nonce and a higher fee (at least an eighth more
 * than before, and at least what the node asks now), stores it (the old hash kept among the
 * earlier ones: either may be mined), then broadcasts it. Fees are read before the database
 * transaction; the row is re-read under the signer lock, so two runs bump it once.
 */
async function bumpFee(db: Db, signer: OperatorSigner, row: OperatorTx, now: Date): Promise<boolean> {
  const old = parseTransaction(row.rawTx as Hex);
  // What the chain asks now: the latest block's base fee, doubled for the blocks to come, and the node's suggested tip.
  const [block, suggestedTip] = await Promise.all([
    signer.client.getBlock(),
    signer.client.estimateMaxPriorityFeePerGas({ chain: signer.wallet.chain }).catch(() => 0n),
  ]);
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const unsigned = {
    chainId: old.chainId,
    type: old.type,
    nonce: old.nonce,
    to: old.to,
    data: old.data,
    value: old.value,
    gas: old.gas,
    accessList: old.accessList,
  } as TransactionSerializable;
  if (old.type === "legacy" || old.type === "eip2930") {
    const asked = await signer.client.getGasPrice().catch(() => 0n);
    Object.assign(unsigned, { gasPrice: max(raised(old.gasPrice ?? 0n), asked) });
  } else {
    const maxPriorityFeePerGas = max(raised(old.maxPriorityFeePerGas ?? 0n), suggestedTip);
    const asked = (block.baseFeePerGas ?? 0n) * 2n + maxPriorityFeePerGas;
    Object.assign(unsigned, { maxPriorityFeePerGas, maxFeePerGas: max(raised(old.maxFeePerGas ?? 0n), asked) });
  }
  const rawTx = await db.transaction(async (tx) => {
    await lockOperatorSigner(tx, signer.chainId);
    const [locked] = await tx
      .select()
      .from(operatorTx)
      .where(and(eq(operatorTx.id, row.id), eq(operatorTx.txHash, row.txHash), eq(operatorTx.state, "broadcast")))
      .for("update");
    if (!locked) return null;
    const signed = await sign(signer.wallet, unsigned);
    await tx
      .update(operatorTx)
      .set({
        rawTx: signed,
        txHash: keccak256(signed),
        earlierHashes: [row.txHash, ...row.earlierHashes],
        bumps: row.bumps + 1,
        broadcastAt: now,
        updatedAt: now,
      })
      .where(eq(operatorTx.id, row.id));
    return signed;
  });
  if (!rawTx) return false;
  try {
    await signer.client.sendRawTransaction({ serializedTransaction: rawTx });
  } catch (error) {
    // Stored either way: a node that did not take it gets it again when the next run finds it lost.
    if (!isNodeUnreachable(error) && !ALREADY_KNOWN.test(error instanceof Error ? error.message : String(error))) throw error;
  }
  return true;
}
