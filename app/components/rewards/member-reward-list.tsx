import { CircleCheck, CircleDashed, CircleSlash, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import type { RewardFilter, ShownReward } from "~/modules/rewards/member-rewards";
import { ownGrantLine, pendingShareLine, poolAmount } from "~/modules/rewards/pool-words";
import { DISTRIBUTION_LABELS } from "~/modules/rewards/pool-types";
import { rankAmount } from "~/modules/rewards/reward.schema";

/** Filter links for the Rewards list; the chosen one is marked for screen readers too. */
export function RewardFilters({ filter, options }: { filter: RewardFilter; options: { value: RewardFilter; label: string }[] }) {
  return (
    <nav aria-label="Filter rewards" className="mb-4 flex flex-wrap gap-1">
      {options.map((o) => (
        <Link
          key={o.value}
          to={o.value === "all" ? route("rewards.index") : `${route("rewards.index")}?status=${o.value}`}
          aria-current={o.value === filter ? "page" : undefined}
          className={cn(
            "rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
            o.value === filter && "bg-accent text-foreground",
          )}
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}

/** What happened with one reward, in words. */
function outcome(r: ShownReward) {
  const terms = { ...r, amount: r.poolAmount };
  switch (r.status) {
    case "won":
      return ownGrantLine(terms, { position: r.position ?? 0, amount: r.amount ?? 0n });
    case "not_won":
      return "Drawn: you entered and were not drawn this time.";
    case "pending":
      return r.distribution === "ranking"
        ? `You hold rank #${r.rank} of the ${r.winners} paid: ${poolAmount(r, rankAmount((r.rankAmounts ?? []).map(BigInt), r.rank ?? 0))} at that rank.`
        : `You completed every task: ${pendingShareLine(terms, r.entrants)}.`;
  }
}

const STATUS = {
  won: { label: "Won", icon: CircleCheck, variant: "success" },
  pending: { label: "In the running", icon: CircleDashed, variant: "outline" },
  not_won: { label: "Not won", icon: CircleSlash, variant: "secondary" },
} as const;

/** The member's rewards, newest first: each with its campaign, its outcome and where to follow it up. */
export function MemberRewardList({ items }: { items: ShownReward[] }) {
  return (
    <ul className="grid gap-3" aria-label="Your rewards">
      {items.map((r) => {
        const status = STATUS[r.status];
        return (
          <li key={`${r.poolId}:${r.status}`} className="grid gap-2 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-[1fr_auto] sm:items-center">
            <div className="grid min-w-0 gap-1">
              <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <Badge variant={status.variant}>
                  <status.icon aria-hidden /> {status.label}
                </Badge>
                <span>{DISTRIBUTION_LABELS[r.distribution].title}</span>
              </p>
              <Link
                className="truncate text-sm text-muted-foreground hover:underline"
                to={route("campaigns.show", { project: r.project.slug, campaign: r.campaign.slug })}
              >
                {r.project.name} › {r.campaign.name}
              </Link>
              <p className="font-medium">{outcome(r)}</p>
              <p className="text-xs text-muted-foreground">
                {r.status === "pending" ? "Paid after the campaign ends, " : "Paid "}
                <LocalTime value={r.at} />
                {r.status === "won" && r.kind === "token" && ` · credited to your Balance (ledger entry #${r.entryId})`}
              </p>
            </div>
            <div className="flex flex-wrap gap-3 text-sm sm:justify-end">
              {r.status === "won" && r.kind === "token" && (
                <Link className="font-medium underline underline-offset-4" to={route("balance")}>
                  Balance
                </Link>
              )}
              {r.verifiable && r.status !== "pending" && (
                <Link className="inline-flex items-center gap-1 font-medium underline underline-offset-4" to={route("rewards.verify", { pool: r.poolId })}>
                  <ShieldCheck className="size-3.5" aria-hidden /> Verify the draw
                </Link>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
