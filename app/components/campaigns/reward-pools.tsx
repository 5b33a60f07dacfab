import { Gift, MessagesSquare, Plus } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { GatePanel, type GatePanelView } from "~/components/trust/gate-panel";
import { Button } from "~/components/ui/button";
import { RewardPoolCard, type RewardPoolView } from "./reward-pool-card";

/** The campaign's reward pools, or why there are none (and, for its managers, the way to add one). */
export function RewardPools({
  pools,
  gates = {},
  campaignEnded,
  onTeam,
  keptNote = null,
  createTo,
  editTo,
  roles = [],
}: {
  pools: RewardPoolView[];
  /** Discord roles the project's bot grants for completing the campaign or winning one of its pools. */
  roles?: { id: string; roleName: string; guildName: string; trigger: "campaign" | "crusade" | "level" | "pool" }[];
  /** Each pool's own gate (who may win it), by pool id; a pool without one is open to every entrant. */
  gates?: Record<string, GatePanelView>;
  campaignEnded: boolean;
  /** The viewer is on the project's team, which wins none of its rewards. */
  onTeam: boolean;
  /** For managers: why the token rewards can be raised but not lowered or deleted now, or null. */
  keptNote?: string | null;
  /** Set for managers while the campaign has not ended. */
  createTo: string | null;
  editTo: ((poolId: string) => string) | null;
}) {
  return (
    <section aria-labelledby="rewards-heading" className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="rewards-heading" className="text-lg font-semibold">
          Rewards
        </h2>
        {createTo && (pools.length > 0 || roles.length > 0) && (
          <Button asChild variant="outline" size="sm">
            <Link to={createTo}>
              <Plus /> Create reward
            </Link>
          </Button>
        )}
      </div>
      {onTeam && pools.length > 0 && (
        <p className="text-xs text-muted-foreground">You are on this project&apos;s team: its rewards go to other members, never to the team.</p>
      )}
      {keptNote && pools.some((pool) => pool.kind === "token") && <p className="text-xs text-muted-foreground">{keptNote}</p>}
      {roles.map((role) => (
        <div key={role.id} className="flex items-start gap-3 rounded-xl border p-4 text-sm">
          <MessagesSquare aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <p>
            <span className="font-medium">{role.roleName}</span> role in {role.guildName || "the project's Discord server"}
            <span className="block text-muted-foreground">
              {role.trigger === "pool" ? "For winning one of these rewards" : "For completing every task"}, given by the project&apos;s Discord bot to a
              connected Discord account.
            </span>
          </p>
        </div>
      ))}
      {pools.length === 0 && roles.length > 0 ? null : pools.length === 0 ? (
        <EmptyState
          icon={Gift}
          title="No reward pools"
          action={
            createTo && (
              <Button asChild variant="brand">
                <Link to={createTo}>
                  <Plus /> Create reward
                </Link>
              </Button>
            )
          }
        >
          {createTo
            ? "Pay XP to the first completers, a raffle's winners, the top of the leaderboard or everyone who finishes."
            : campaignEnded
              ? "This campaign paid no reward beyond its tasks' XP."
              : "This campaign has no reward beyond its tasks' XP yet."}
        </EmptyState>
      ) : (
        pools.map((pool) => (
          <div key={pool.id} className="grid gap-2">
            <RewardPoolCard pool={pool} campaignEnded={campaignEnded} editTo={editTo?.(pool.id) ?? null} deletable={!(keptNote && pool.kind === "token")} />
            {gates[pool.id] && <GatePanel gate={gates[pool.id]!} what="reward" compact />}
          </div>
        ))
      )}
    </section>
  );
}
