import type { Distribution } from "#db/schema/rewards";

/** How reward pools are described on screen; shared by the cards and the form's preview. */

export type PoolTerms = { distribution: Distribution; winners: number | null; amount: number | null; rankAmounts: number[] | null };

const n = (value: number) => value.toLocaleString("en");
const members = (count: number) => (count === 1 ? "1 member" : `${n(count)} members`);

/** The amount in one line: "100 XP each", "Up to 500 XP", "10,000 XP split". */
export function poolHeadline(p: PoolTerms) {
  switch (p.distribution) {
    case "fcfs":
    case "raffle":
      return `${n(p.amount ?? 0)} XP each`;
    case "ranking":
      return `Up to ${n(p.rankAmounts?.[0] ?? 0)} XP`;
    case "everyone":
      return `${n(p.amount ?? 0)} XP split`;
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

type RankTier = { label: string; amount: number; each: boolean };

/** A ranking pool's amounts as tiers: "#1 500 XP", "#2 300 XP", "#3–10 100 XP each". */
export function rankTiers(amounts: readonly number[], winners: number): RankTier[] {
  const tiers: RankTier[] = [];
  for (let rank = 1; rank <= Math.min(amounts.length, winners); rank++) {
    const last = rank === amounts.length && winners > rank;
    tiers.push({ label: last ? `#${rank}–${n(winners)}` : `#${rank}`, amount: amounts[rank - 1]!, each: last });
  }
  return tiers;
}

/** What was paid: "Paid to 12 members" / "Nobody qualified". */
export function paidLine(paidTo: number, paidXp: number) {
  return paidTo === 0 ? "Nobody qualified, so nothing was paid." : `Paid to ${members(paidTo)}: ${n(paidXp)} XP in all.`;
}

/** The member's own grant: "You won 70 XP", "You got 300 XP for rank #1". */
export function ownGrantLine(distribution: Distribution, grant: { position: number; amount: number }) {
  const xp = `${n(grant.amount)} XP`;
  switch (distribution) {
    case "fcfs":
      return `You got ${xp}: you finished #${n(grant.position)}.`;
    case "raffle":
      return `You won ${xp} in the draw.`;
    case "ranking":
      return `You got ${xp} for rank #${n(grant.position)}.`;
    case "everyone":
      return `You got ${xp}, your share.`;
  }
}
