import { relativeTime } from "~/components/campaigns/local-time";
import { WindowBadge, type WindowTone } from "~/components/containers/window-badge";
import type { AirdropPhase } from "~/modules/airdrops/airdrop-phase";
import { RULE_LABELS } from "~/modules/airdrops/airdrop-phase";
import type { AirdropRule } from "~/modules/airdrops/airdrop-types";
import { assetAmount, type Asset } from "~/modules/ledger/assets";

const BADGES: Record<AirdropPhase, { tone: WindowTone; label: string }> = {
  draft: { tone: "outline", label: "Draft" },
  upcoming: { tone: "warning", label: "Upcoming" },
  live: { tone: "success", label: "Live" },
  ended: { tone: "secondary", label: "Ended" },
  frozen: { tone: "secondary", label: "Frozen" },
  claimable: { tone: "brand", label: "Claimable" },
  closed: { tone: "secondary", label: "Claims closed" },
  swept: { tone: "secondary", label: "Swept" },
  failed: { tone: "secondary", label: "Not opened" },
  previous_chain: { tone: "secondary", label: "From a previous chain" },
};

export function AirdropPhaseBadge({ phase }: { phase: AirdropPhase }) {
  return <WindowBadge tone={BADGES[phase].tone} label={BADGES[phase].label} live={phase === "live"} />;
}

/** "ends in 3 days", "claims close in 20 days"…; nothing for a draft or a swept airdrop. */
export function airdropCountdown(
  a: { phase: AirdropPhase; startsAt: Date | string; endsAt: Date | string; claimDeadline: Date | string },
  now: Date | string,
): string | null {
  switch (a.phase) {
    case "upcoming":
      return `starts ${relativeTime(a.startsAt, now)}`;
    case "live":
      return `ends ${relativeTime(a.endsAt, now)}`;
    case "ended":
    case "frozen":
      return `ended ${relativeTime(a.endsAt, now)}`;
    case "claimable":
      return `claims close ${relativeTime(a.claimDeadline, now)}`;
    case "closed":
      return `claims closed ${relativeTime(a.claimDeadline, now)}`;
    default:
      return null;
  }
}

/** "1,000 QUEST", an asset's amount in words. */
export const tokenAmount = (units: bigint, asset: string) => assetAmount(units, asset as Asset);

/** How the total is shared, in words: "1,000 QUEST in proportion to points", "600 QUEST to the top 3". */
export function shareLine(a: { total: bigint; asset: string; rule: AirdropRule; ranks: number | null }) {
  const total = tokenAmount(a.total, a.asset);
  if (a.rule === "top") return `${total} to the top ${a.ranks ?? 0} ${a.ranks === 1 ? "rank" : "ranks"}`;
  return `${total} ${RULE_LABELS.pro_rata.toLowerCase()}`;
}
