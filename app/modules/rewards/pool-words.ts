import { formatAmount } from "~/lib/token-amounts";
import type { Distribution, RewardKind } from "./pool-types";

/** How reward pools are described on screen; shared by the cards, the Rewards pages and the form's preview. */

export type PoolTerms = {
  kind: RewardKind;
  asset: string | null;
  /** The asset's decimals, in which a token pool's amounts are shown (the registry's; USDC's 6); ignored for XP. */
  decimals: number;
  distribution: Distribution;
  winners: number | null;
  amount: bigint | null;
  /** Decimal strings as stored, or bigints. */
  rankAmounts: readonly (string | bigint)[] | null;
};

const n = (value: number) => value.toLocaleString("en");
const members = (count: number) => (count === 1 ? "1 member" : `${n(count)} members`);

/** The pool's unit: "XP", or the token's symbol ("QUEST"). */
export const poolUnit = (p: Pick<PoolTerms, "kind" | "asset">) => (p.kind === "xp" ? "XP" : (p.asset ?? "").split(":")[0]!);

/** An amount of the pool's kind: "1,500 XP", "12.5 QUEST" (in the token's own decimals: "2.5 USDC" is 2,500,000 units). */
export function poolAmount(p: Pick<PoolTerms, "kind" | "asset" | "decimals">, units: bigint | string | null) {
  const value = BigInt(units ?? 0);
  return `${p.kind === "xp" ? value.toLocaleString("en") : formatAmount(value, { decimals: p.decimals })} ${poolUnit(p)}`;
}

/** The amount in one line: "100 XP each", "Up to 500 QUEST", "10,000 XP split". */
export function poolHeadline(p: PoolTerms) {
  switch (p.distribution) {
    case "fcfs":
    case "raffle":
      return `${poolAmount(p, p.amount)} each`;
    case "ranking":
      return `Up to ${poolAmount(p, p.rankAmounts?.[0] ?? 0n)}`;
    case "everyone":
      return `${poolAmount(p, p.amount)} split`;
  }
}

/** Who gets it, in a sentence; `paid` puts it in the past. */
export function poolSummary(p: PoolTerms, { paid = false }: { paid?: boolean } = {}) {
  const winners = p.winners ?? 0;
  const complete = paid ? "completed" : "complete";
  switch (p.distribution) {
    case "fcfs":
      return `For the first ${winners === 1 ? "member" : `${n(winners)} members`} to complete every task.`;
    case "raffle":
      return `${winners === 1 ? "1 winner" : `${n(winners)} winners`} drawn at random among the members who ${complete} every task.`;
    case "ranking":
      return `For the top ${n(winners)} of the campaign leaderboard at its end.`;
    case "everyone":
      return `Split equally among every member who ${paid ? "completed" : "completes"} every task.`;
  }
}

type RankTier = { label: string; amount: string; each: boolean };

/** A ranking pool's amounts as tiers: "#1 500 XP", "#2 300 XP", "#3–10 100 XP each". */
export function rankTiers(p: PoolTerms): RankTier[] {
  const amounts = p.rankAmounts ?? [];
  const winners = p.winners ?? 0;
  const tiers: RankTier[] = [];
  for (let rank = 1; rank <= Math.min(amounts.length, winners); rank++) {
    const last = rank === amounts.length && winners > rank;
    tiers.push({ label: last ? `#${rank}–${n(winners)}` : `#${rank}`, amount: poolAmount(p, amounts[rank - 1]!), each: last });
  }
  return tiers;
}

/** What was paid: "Paid to 12 members: 1,200 XP in all." / "Nobody qualified…", and what went back to the treasury. */
export function paidLine(p: PoolTerms, { paidTo, paidTotal, returned }: { paidTo: number; paidTotal: bigint; returned: bigint }) {
  const back = p.kind === "token" && returned > 0n ? ` ${poolAmount(p, returned)} went back to the project's treasury.` : "";
  return (paidTo === 0 ? "Nobody qualified, so nothing was paid." : `Paid ${members(paidTo)}: ${poolAmount(p, paidTotal)} in all.`) + back;
}

/** The member's own grant: "You won 70 XP in the draw.", "You got 300 QUEST for rank #1." */
export function ownGrantLine(p: PoolTerms, grant: { position: number; amount: bigint }) {
  const amount = poolAmount(p, grant.amount);
  switch (p.distribution) {
    case "fcfs":
      return `You got ${amount}: you finished #${n(grant.position)}.`;
    case "raffle":
      return `You won ${amount} in the draw.`;
    case "ranking":
      return `You got ${amount} for rank #${n(grant.position)}.`;
    case "everyone":
      return `You got ${amount}, your share.`;
  }
}

/**
 * What a member who completed every task stands to get from a pool not paid yet: "30 QUEST each
 * for the 2 winners drawn at random", "40 QUEST split equally among the members who complete every
 * task: 20 QUEST each among the 2 so far". `entrants`: everyone pools, the completers so far.
 */
export function pendingShareLine(p: PoolTerms, entrants: number | null) {
  const winners = p.winners ?? 0;
  switch (p.distribution) {
    case "fcfs":
      return `${poolHeadline(p)} for the first ${winners === 1 ? "member" : `${n(winners)} members`} to finish`;
    case "raffle":
      return `${poolHeadline(p)} for the ${winners === 1 ? "1 winner" : `${n(winners)} winners`} drawn at random`;
    case "ranking":
      return poolHeadline(p);
    case "everyone": {
      const split = `${poolHeadline(p)} equally among the members who complete every task`;
      if (!entrants || p.amount == null) return split;
      const total = BigInt(p.amount);
      const share = total / BigInt(entrants);
      // XP that does not divide evenly goes, one each, to the earliest finishers.
      const each = p.kind === "xp" && total % BigInt(entrants) > 0n ? `${n(Number(share))}–${poolAmount(p, share + 1n)}` : poolAmount(p, share);
      return `${split}: ${each} each among the ${entrants === 1 ? "1" : n(entrants)} so far`;
    }
  }
}
