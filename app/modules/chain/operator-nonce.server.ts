import { sql } from "drizzle-orm";
import type { Address, PublicClient } from "viem";
import { airdropRound } from "#db/schema/airdrops";
import { withdrawal } from "#db/schema/ledger";
import { rowsOf, type Db } from "~/lib/db.server";

/**
 * The operator signs withdrawals and airdrop rounds with one account per chain, so both share
 * one signer lock and one nonce sequence: a transaction is stored signed before it is broadcast,
 * and the next one must come after it even when the node has not seen it yet (a crash between
 * the two).
 */

/** The advisory lock class ("WD") under which a chain's operator signs, across processes. */
const SIGNER_LOCK = 0x5744;

/** Takes the chain's signer lock for the rest of the caller's transaction. */
export async function lockOperatorSigner(tx: Db, chainId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SIGNER_LOCK}, ${chainId})`);
}

/**
 * The nonce the operator signs with next, under the signer lock: past the node's pending count
 * and past every stored transaction that may still be broadcast.
 */
export async function nextOperatorNonce(tx: Db, { chainId, client, address }: { chainId: number; client: PublicClient; address: Address }): Promise<number> {
  const pending = await client.getTransactionCount({ address, blockTag: "pending" });
  const [row] = rowsOf(
    await tx.execute(sql`
      select greatest(
        (select max(${withdrawal.nonce}) from ${withdrawal} where ${withdrawal.chainId} = ${chainId} and ${withdrawal.status} in ('sending', 'sent')),
        (select max(${airdropRound.nonce}) from ${airdropRound} where ${airdropRound.chainId} = ${chainId} and ${airdropRound.txHash} is not null)
      ) as stored`),
  );
  const stored = row?.stored === null || row?.stored === undefined ? null : Number(row.stored);
  return Math.max(pending, stored === null ? 0 : stored + 1);
}
