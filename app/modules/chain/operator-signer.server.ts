import { sql } from "drizzle-orm";
import {
  encodeFunctionData,
  keccak256,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { airdropRound } from "#db/schema/airdrops";
import { withdrawal } from "#db/schema/ledger";
import { rowsOf, type Db } from "~/lib/db.server";

/**
 * How the platform signs as the vault's operator (withdrawals and airdrop rounds), in two steps so
 * that no database transaction waits on a node:
 *
 * 1. `prepareOperatorCall`, with no transaction open: the call is simulated (a refusal is thrown
 *    for the caller to put in words), its gas and fees are estimated, and the node's pending nonce
 *    and latest block are read.
 * 2. `signPrepared`, inside the caller's transaction and without any node call: the chain's signer
 *    lock, the nonce past the node's pending count and past every stored transaction that may still
 *    be broadcast, and the signature of the operator's key. The caller stores the transaction in
 *    the same transaction, commits, and only then broadcasts it.
 *
 * Withdrawals and airdrop rounds share one account per chain, so one signer lock and one nonce
 * sequence: a transaction is stored signed before it is broadcast, and the next one must come
 * after it even when the node has not seen it yet (a crash between the two).
 */

export type OperatorWallet = WalletClient<Transport, Chain, Account>;

/** The operator on one chain: the node it reads through and the wallet that signs. */
export type OperatorSigner = { chainId: number; client: PublicClient; wallet: OperatorWallet };

/** A contract call, as viem takes it. */
export type OperatorCall = { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };

export type PreparedCall = {
  request: Awaited<ReturnType<OperatorWallet["prepareTransactionRequest"]>>;
  /** The node's count of the operator's transactions, pending ones included, when prepared. */
  pendingNonce: number;
  /** The latest block when prepared: what the transaction's effects are looked for from. */
  block: bigint;
};

export type SignedCall = { rawTx: Hex; txHash: Hex; nonce: number };

/** The advisory lock class ("WD") under which a chain's operator signs, across processes. */
const SIGNER_LOCK = 0x5744;

/** Step 1, outside any database transaction: simulates `call` (throwing its refusal), then fills in its gas and fees. */
export async function prepareOperatorCall({ client, wallet }: OperatorSigner, call: OperatorCall): Promise<PreparedCall> {
  const { account } = wallet;
  await client.simulateContract({ account, ...call } as Parameters<PublicClient["simulateContract"]>[0]);
  const [request, pendingNonce, block] = await Promise.all([
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
  ]);
  return { request, pendingNonce, block };
}

/** Step 2, in the caller's transaction (which stores what it returns): no node is asked anything. */
export async function signPrepared(tx: Db, { chainId, wallet }: OperatorSigner, prepared: PreparedCall): Promise<SignedCall> {
  await lockOperatorSigner(tx, chainId);
  const nonce = Math.max(prepared.pendingNonce, (await lastStoredNonce(tx, chainId)) + 1);
  const { account } = wallet;
  if (!account.signTransaction) throw new Error("The operator's account cannot sign transactions locally");
  const rawTx = await account.signTransaction({ ...prepared.request, nonce } as Parameters<NonNullable<Account["signTransaction"]>>[0], {
    serializer: wallet.chain.serializers?.transaction,
  });
  return { rawTx, txHash: keccak256(rawTx), nonce };
}

/** Takes the chain's signer lock for the rest of the caller's transaction. */
export async function lockOperatorSigner(tx: Db, chainId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SIGNER_LOCK}, ${chainId})`);
}

/** The highest nonce of a stored operator transaction that may still be broadcast on the chain, or -1. */
async function lastStoredNonce(tx: Db, chainId: number): Promise<number> {
  const [row] = rowsOf(
    await tx.execute(sql`
      select greatest(
        (select max(${withdrawal.nonce}) from ${withdrawal} where ${withdrawal.chainId} = ${chainId} and ${withdrawal.status} in ('sending', 'sent')),
        (select max(${airdropRound.nonce}) from ${airdropRound} where ${airdropRound.chainId} = ${chainId} and ${airdropRound.txHash} is not null)
      ) as stored`),
  );
  return row?.stored === null || row?.stored === undefined ? -1 : Number(row.stored);
}
