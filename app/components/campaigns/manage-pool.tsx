import { Pencil, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { ConfirmDialog } from "~/components/projects/confirm-dialog";
import { Button } from "~/components/ui/button";
import { DISTRIBUTION_LABELS } from "~/modules/rewards/pool-types";
import { poolAmount, poolHeadline, poolSummary } from "~/modules/rewards/pool-words";
import { poolMaximum } from "~/modules/rewards/reward.schema";
import type { RewardPoolView } from "./reward-pool-card";

/** A token reward holds its whole amount in escrow: deleting it sends that back to the treasury. */
function escrowBack(pool: RewardPoolView) {
  if (pool.kind !== "token") return "";
  const escrowed = poolMaximum({ ...pool, rankAmounts: pool.rankAmounts?.map(BigInt) ?? null });
  return ` The ${poolAmount(pool, escrowed)} it holds in escrow goes back to the project's treasury.`;
}

/** The team's controls of a reward not yet paid: edit it, or delete it after a confirmation (unless it may only be raised). */
export function ManagePool({ pool, editTo, deletable = true }: { pool: RewardPoolView; editTo: string; deletable?: boolean }) {
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
      {deletable && (
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" pending={remover.state !== "idle"} aria-label={`Delete the ${name} reward`}>
              <Trash2 aria-hidden /> Delete
            </Button>
          }
          title="Delete this reward?"
          description={`${poolHeadline(pool)} — ${poolSummary(pool)} Members will no longer see it.${escrowBack(pool)}`}
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
      )}
    </div>
  );
}
