import type { Address } from "viem";

/**
 * How an airdrop's total is shared when it ends:
 * - `pro_rata`: every eligible member gets `total × points / all eligible points`, rounded down
 *   in base units; the dust (less than one base unit per eligible member) goes to the
 *   last-ranked eligible member, so the shares add up to the total exactly;
 * - `top`: the best `amounts.length` eligible members get `amounts[rank - 1]`.
 * Eligible: at least `minPoints` points (and at least 1).
 */
export type AllocationRule = { kind: "pro_rata"; total: bigint; minPoints: number } | { kind: "top"; amounts: readonly bigint[]; minPoints: number };

/** A member on the airdrop's board, in board order (points, then who reached them first). */
export type Standing = { userId: string; points: number; account: Address | null };

/**
 * A member's share. `index` is the leaf the member claims with; a member without a linked
 * wallet at the freeze has none: their share is not in the tree and goes back to the project.
 */
export type Allocation = { userId: string; rank: number; points: number; amount: bigint; account: Address | null; index: number | null };

export type AllocationResult = {
  allocations: Allocation[];
  /** What the tree pays: the shares of members with a wallet. */
  claimable: bigint;
  /** What goes back to the project: the shares of members without a wallet at the freeze. */
  unclaimable: bigint;
};

/** Shares `rule` among `standings` (best first). Members below the minimum get no row. */
export function allocate(standings: readonly Standing[], rule: AllocationRule): AllocationResult {
  const minimum = Math.max(1, rule.minPoints);
  const eligible = standings.filter((standing) => standing.points >= minimum);
  const amounts = rule.kind === "pro_rata" ? proRata(eligible, rule.total) : eligible.slice(0, rule.amounts.length).map((_, rank) => rule.amounts[rank]!);
  const allocations: Allocation[] = [];
  let claimable = 0n;
  let unclaimable = 0n;
  let index = 0;
  amounts.forEach((amount, i) => {
    const { userId, points, account } = eligible[i]!;
    const claims = account !== null && amount > 0n;
    if (claims) claimable += amount;
    else unclaimable += amount;
    allocations.push({ userId, rank: i + 1, points, amount, account, index: claims ? index++ : null });
  });
  return { allocations, claimable, unclaimable };
}

function proRata(eligible: readonly Standing[], total: bigint): bigint[] {
  if (eligible.length === 0) return [];
  const points = eligible.reduce((sum, standing) => sum + BigInt(standing.points), 0n);
  const shares = eligible.map((standing) => (total * BigInt(standing.points)) / points);
  const dust = total - shares.reduce((sum, share) => sum + share, 0n);
  shares[shares.length - 1]! += dust;
  return shares;
}
