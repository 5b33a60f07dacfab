import { eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { airdropEscrow, projectTreasury, rebalanceEscrow } from "~/modules/ledger/ledger.server";

type AirdropRow = typeof airdrop.$inferSelect;

/**
 * Brings an airdrop's escrow to `target` from its project's treasury (or back to it). `row` must
 * be the airdrop as locked by the caller's transaction: moves are numbered from its
 * `escrowMoves`, which keys the posting. Throws `InsufficientFunds` when the treasury is short.
 */
export async function setAirdropEscrow(tx: Db, { row, target, now }: { row: AirdropRow; target: bigint; now: Date }): Promise<void> {
  const moveNumber = row.escrowMoves + 1;
  const moved = await rebalanceEscrow({
    db: tx,
    key: ledgerKey.airdropEscrow(row.id, moveNumber),
    kind: { in: "airdrop_escrow", out: "airdrop_escrow_return" },
    reference: row.id,
    asset: row.asset as Asset,
    treasury: projectTreasury(row.projectId),
    escrow: airdropEscrow(row.id),
    current: row.escrowed,
    target,
  });
  if (moved) await tx.update(airdrop).set({ escrowed: target, escrowMoves: moveNumber, updatedAt: now }).where(eq(airdrop.id, row.id));
}
