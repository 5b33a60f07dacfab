import { Dices, ListOrdered, Medal, Users, type LucideIcon } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { ExcludedLine } from "~/components/trust/member-excluded-line";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { DISTRIBUTION_LABELS, type Distribution, type PoolStatus } from "~/modules/rewards/pool-types";
import { ownGrantLine, paidLine, poolHeadline, poolSummary, poolUnit, rankTiers, type PoolTerms } from "~/modules/rewards/pool-words";
import { route } from "~/lib/routes";

export type RewardPoolView = PoolTerms & {
  id: string;
  status: PoolStatus;
  /** A raffle's commitment (shown from the start), its frozen entrants and the block that seeds it. */
  commitment: string | null;
  entrantsCount: number | null;
  drawBlock: number | null;
  drawChainId: number | null;
  paidTo: number;
  paidTotal: bigint;
  returned: bigint;
  mine: { position: number; amount: bigint } | null;
  /** Set once paid (a raffle: once its entrants are frozen): how many entrants were kept out, by reason. Counts only. */
  excludedCounts?: Record<string, number> | null;
};

/**
 * The team's edit and delete controls, fetched only when shown: a visitor's campaign page loads no
 * dialog code. The server renders them in place; the browser brings them to life once fetched.
 */
const ManagePool = lazy(() => import("./manage-pool").then((module) => ({ default: module.ManagePool })));

const ICONS: Record<Distribution, LucideIcon> = { fcfs: Medal, raffle: Dices, ranking: ListOrdered, everyone: Users };

/** One reward pool: what it pays and to whom, then what it paid (and what the viewer got). */
export function RewardPoolCard({
  pool,
  campaignEnded,
  editTo,
  deletable = true,
}: {
  pool: RewardPoolView;
  campaignEnded: boolean;
  editTo: string | null;
  /** False when the team may only raise it (its campaign is live, or entered): no Delete then. */
  deletable?: boolean;
}) {
  const Icon = ICONS[pool.distribution];
  const paid = pool.status === "paid";
  return (
    <Card role="article" aria-label={`${DISTRIBUTION_LABELS[pool.distribution].title} reward`}>
      <CardHeader>
        <CardDescription className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <Icon className="size-4 text-lime-600 dark:text-brand" aria-hidden /> {DISTRIBUTION_LABELS[pool.distribution].title}
          </span>
          {paid ? (
            <Badge variant="success">Paid</Badge>
          ) : campaignEnded ? (
            <Badge variant="warning">{pool.status === "frozen" ? "Drawing" : "Paying out"}</Badge>
          ) : (
            <Badge variant="outline">{poolUnit(pool)}</Badge>
          )}
        </CardDescription>
        <CardTitle className="text-xl tabular-nums">{poolHeadline(pool)}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 pt-3 text-sm">
        <p className="text-muted-foreground">{poolSummary(pool, { paid })}</p>
        {pool.distribution === "ranking" && pool.rankAmounts && (
          <ul className="grid gap-1 rounded-lg border p-2 text-xs">
            {rankTiers(pool).map((tier) => (
              <li key={tier.label} className="flex justify-between gap-3">
                <span className="text-muted-foreground">{tier.label}</span>
                <span className="font-medium tabular-nums">
                  {tier.amount}
                  {tier.each && " each"}
                </span>
              </li>
            ))}
          </ul>
        )}
        {paid ? (
          <>
            <p className="font-medium">{paidLine(pool, pool)}</p>
            {pool.mine && (
              <p className="rounded-md bg-brand/15 px-3 py-2 font-medium text-lime-800 dark:text-brand" role="status">
                {ownGrantLine(pool, pool.mine)}
              </p>
            )}
          </>
        ) : (
          <p className="text-xs text-muted-foreground">{pendingLine(pool, campaignEnded)}</p>
        )}
        {pool.status !== "open" && <ExcludedLine counts={pool.excludedCounts} />}
        {pool.commitment && <RaffleFacts pool={pool} />}
        {editTo && !paid && !campaignEnded && (
          <Suspense fallback={null}>
            <ManagePool pool={pool} editTo={editTo} deletable={deletable} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}

function pendingLine(pool: RewardPoolView, campaignEnded: boolean) {
  if (pool.status === "frozen")
    return `The entrants are frozen (${(pool.entrantsCount ?? 0).toLocaleString("en")}); the draw waits for block ${pool.drawBlock?.toLocaleString("en")}.`;
  if (campaignEnded) return "The campaign has ended: this reward is being paid out.";
  return pool.kind === "xp"
    ? "Paid in XP when the campaign ends."
    : `Held for the winners in the project's escrow; paid to their Questline balance when the campaign ends.`;
}

/** A raffle's published commitment, and the way to check its draw. */
function RaffleFacts({ pool }: { pool: RewardPoolView }) {
  return (
    <div className="grid gap-1 rounded-lg border p-2 text-xs text-muted-foreground">
      <p>
        Commitment published before the draw: <code className="font-mono break-all text-foreground">{pool.commitment}</code>
      </p>
      {pool.status === "paid" && (
        <Link className="font-medium text-foreground underline underline-offset-4" to={route("rewards.verify", { pool: pool.id })}>
          Verify this draw
        </Link>
      )}
    </div>
  );
}
