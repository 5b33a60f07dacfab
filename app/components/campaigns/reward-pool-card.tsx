import { Dices, ListOrdered, Medal, Pencil, Trash2, Users, type LucideIcon } from "lucide-react";
import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { ConfirmDialog } from "~/components/projects/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { DISTRIBUTION_LABELS } from "~/modules/rewards/reward.schema";
import { ownGrantLine, paidLine, poolHeadline, poolSummary, rankTiers, type PoolTerms } from "~/modules/rewards/pool-words";
import type { Distribution } from "#db/schema/rewards";

export type RewardPoolView = PoolTerms & {
  id: string;
  status: "open" | "distributing" | "paid";
  seed: string | null;
  paidTo: number;
  paidXp: number;
  mine: { position: number; amount: number } | null;
};

const ICONS: Record<Distribution, LucideIcon> = { fcfs: Medal, raffle: Dices, ranking: ListOrdered, everyone: Users };

/** One reward pool: what it pays and to whom, then what it paid (and what the viewer got). */
export function RewardPoolCard({ pool, campaignEnded, editTo }: { pool: RewardPoolView; campaignEnded: boolean; editTo: string | null }) {
  const Icon = ICONS[pool.distribution];
  const paid = pool.status === "paid";
  return (
    <Card role="article" aria-label={`${DISTRIBUTION_LABELS[pool.distribution].title} reward`}>
      <CardHeader>
        <CardDescription className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <Icon className="size-4 text-lime-600 dark:text-brand" aria-hidden /> {DISTRIBUTION_LABELS[pool.distribution].title}
          </span>
          {paid ? <Badge variant="success">Paid</Badge> : campaignEnded ? <Badge variant="warning">Paying out</Badge> : <Badge variant="outline">XP</Badge>}
        </CardDescription>
        <CardTitle className="text-xl tabular-nums">{poolHeadline(pool)}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 pt-3 text-sm">
        <p className="text-muted-foreground">{poolSummary(pool, { paid })}</p>
        {pool.distribution === "ranking" && pool.rankAmounts && (
          <ul className="grid gap-1 rounded-lg border p-2 text-xs">
            {rankTiers(pool.rankAmounts, pool.winners ?? 0).map((tier) => (
              <li key={tier.label} className="flex justify-between gap-3">
                <span className="text-muted-foreground">{tier.label}</span>
                <span className="font-medium tabular-nums">
                  {tier.amount.toLocaleString("en")} XP{tier.each && " each"}
                </span>
              </li>
            ))}
          </ul>
        )}
        {paid ? (
          <>
            <p className="font-medium">{paidLine(pool.paidTo, pool.paidXp)}</p>
            {pool.mine && (
              <p className="rounded-md bg-brand/15 px-3 py-2 font-medium text-lime-800 dark:text-brand" role="status">
                {ownGrantLine(pool.distribution, pool.mine)}
              </p>
            )}
            {pool.seed && (
              <details className="text-xs text-muted-foreground">
                <summary className="cursor-pointer select-none">How the winners were drawn</summary>
                <p className="mt-1">
                  From the completers in finishing order, with the recorded seed <code className="font-mono break-all text-foreground">{pool.seed}</code>
                </p>
              </details>
            )}
          </>
        ) : (
          <p className="text-xs text-muted-foreground">
            {campaignEnded ? "The campaign has ended: this reward is being paid out." : "Paid in XP when the campaign ends."}
          </p>
        )}
        {editTo && !paid && !campaignEnded && <ManagePool pool={pool} editTo={editTo} />}
      </CardContent>
    </Card>
  );
}

function ManagePool({ pool, editTo }: { pool: RewardPoolView; editTo: string }) {
  const remover = useFetcher<{ errors?: Record<string, string> }>();
  const failed = remover.state === "idle" ? remover.data?.errors?.form : undefined;
  useEffect(() => {
    if (failed) toast.error(failed);
  }, [failed]);
  const name = DISTRIBUTION_LABELS[pool.distribution].title;
  return (
    <div className="flex flex-wrap gap-2 border-t pt-3">
      <Button asChild variant="outline" size="sm">
        <Link to={editTo} aria-label={`Edit the ${name} reward`}>
          <Pencil aria-hidden /> Edit
        </Link>
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="sm" pending={remover.state !== "idle"} aria-label={`Delete the ${name} reward`}>
            <Trash2 aria-hidden /> Delete
          </Button>
        }
        title="Delete this reward?"
        description={`${poolHeadline(pool)} — ${poolSummary(pool)} Members will no longer see it.`}
        confirm={(close) => (
          <Button
            variant="destructive"
            onClick={() => {
              void remover.submit({ intent: "delete" }, { method: "post", action: editTo });
              close();
            }}
          >
            Delete
          </Button>
        )}
      />
    </div>
  );
}
