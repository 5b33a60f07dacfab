import { CircleCheck, Coins, Download, Trophy, Wallet } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { TxHash } from "~/components/chain/tx-progress";
import { ExcludedLine } from "~/components/trust/member-excluded-line";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import type { AirdropStanding } from "~/modules/airdrops/airdrop-pages";
import { isFrozenPhase, type AirdropPhase } from "~/modules/airdrops/airdrop-phase";
import type { AirdropRule } from "~/modules/airdrops/airdrop-types";
import { formatAmount } from "~/lib/token-amounts";
import { shortAddress } from "~/wallet/chains";
import { tokenAmount } from "./airdrop-status";

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2 text-sm">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium tabular-nums wrap-anywhere">{children}</dd>
    </div>
  );
}

/** The team's exclusion as the member reads it, with the way to appeal. */
function ExcludedNotice({ reason }: { reason: string }) {
  return (
    <p className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
      The project&apos;s team excluded you from this airdrop&apos;s payout: &ldquo;{reason}&rdquo;. You can appeal at{" "}
      <Link to={route("settings.trust")} className="font-medium underline underline-offset-4">
        Settings › Trust
      </Link>
      .
    </p>
  );
}

/** While the airdrop runs: the member's points and exact rank on its board, and what a share needs. */
function Running({
  phase,
  standing,
  minPoints,
  onTeam,
  leaderboardTo,
}: {
  phase: AirdropPhase;
  standing: AirdropStanding;
  minPoints: number;
  onTeam: boolean;
  leaderboardTo: string;
}) {
  const { board } = standing;
  if (onTeam && !board) return <p className="text-sm text-muted-foreground">You are on the project&apos;s team, which gets no share of its airdrops.</p>;
  return (
    <div className="grid gap-3 text-sm">
      {standing.excluded && <ExcludedNotice reason={standing.excluded} />}
      {board ? (
        <dl className="divide-y">
          <Stat label="Points">{board.points.toLocaleString("en")}</Stat>
          <Stat label="Rank">#{board.rank.toLocaleString("en")}</Stat>
        </dl>
      ) : (
        <p className="text-muted-foreground">
          {phase === "live" ? "No points yet: complete one of its tasks to join the board." : "Its tasks earn points while it runs."}
        </p>
      )}
      {onTeam ? (
        <p className="text-muted-foreground">You are on the project&apos;s team: your points show on the board, but the team gets no share.</p>
      ) : (
        board &&
        board.points < Math.max(1, minPoints) && (
          <p className="text-muted-foreground">A share needs at least {minPoints.toLocaleString("en")} points at the end.</p>
        )
      )}
      {!standing.hasWallet && !onTeam && (
        <p className="flex items-start gap-2 rounded-md border bg-muted/40 p-3 text-muted-foreground">
          <Wallet className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            Link a wallet to claim: your share is paid on chain to the wallet linked when the airdrop ends.{" "}
            <Link to={route("settings.profile")} className="font-medium text-foreground underline underline-offset-4">
              Link a wallet
            </Link>
          </span>
        </p>
      )}
      {board && (
        <Button asChild variant="outline" size="sm" className="justify-self-start">
          <Link to={leaderboardTo}>
            <Trophy aria-hidden /> See the leaderboard
          </Link>
        </Button>
      )}
    </div>
  );
}

/** Once frozen: the member's share, where it is paid, and whether it was claimed. */
function Frozen({
  phase,
  standing,
  asset,
  minPoints,
  onTeam,
  claimDeadline,
  claim,
}: {
  phase: AirdropPhase;
  standing: AirdropStanding;
  asset: string;
  minPoints: number;
  onTeam: boolean;
  claimDeadline: Date | string;
  claim?: ReactNode;
}) {
  const { share, board } = standing;
  if (!share && standing.excluded) return <ExcludedNotice reason={standing.excluded} />;
  if (!share) {
    const text = onTeam
      ? "You are on the project's team, which gets no share."
      : !board
        ? "You earned no points in this airdrop."
        : `You had ${board.points.toLocaleString("en")} points, below the ${minPoints.toLocaleString("en")} a share needed.`;
    return <p className="text-sm text-muted-foreground">{text}</p>;
  }
  return (
    <div className="grid gap-3 text-sm">
      <dl className="divide-y">
        <Stat label="Amount">{tokenAmount(share.amount, asset)}</Stat>
        <Stat label="Rank">
          #{share.rank.toLocaleString("en")} with {share.points.toLocaleString("en")} points
        </Stat>
        {share.account && (
          <Stat label="Paid to">
            <span className="font-mono" title={share.account}>
              {shortAddress(share.account)}
            </span>
          </Stat>
        )}
      </dl>
      {share.leaf === null ? (
        <p className="text-muted-foreground">No wallet was linked at the freeze: your share went back to the project.</p>
      ) : share.claim ? (
        <div className="grid gap-1.5">
          <p className="flex items-center gap-2 font-medium">
            <Badge variant="success">
              <CircleCheck aria-hidden /> Claimed
            </Badge>
            <LocalTime value={share.claim.claimedAt} />
          </p>
          <p className="text-muted-foreground">
            Transaction <TxHash hash={share.claim.txHash} chainId={share.claim.chainId} short />
          </p>
        </div>
      ) : phase === "claimable" ? (
        <div className="grid gap-2">
          <p className="text-muted-foreground">
            Claim it until <LocalTime value={claimDeadline} />: the tokens go to the wallet above.
          </p>
          {claim}
        </div>
      ) : phase === "frozen" ? (
        <p className="text-muted-foreground">Claims open once its round is funded and opened on chain, which happens on its own shortly after the freeze.</p>
      ) : phase === "failed" ? (
        <p className="text-muted-foreground">Its claims round could not be opened in time: your share went back to the project.</p>
      ) : phase === "previous_chain" ? (
        <p className="text-muted-foreground">Its claims round is from a previous chain: it is not on the chain running now, so your share cannot be claimed.</p>
      ) : (
        <p className="text-muted-foreground">
          Not claimed before claims closed (<LocalTime value={claimDeadline} />){phase === "swept" ? ": it went back to the project." : "."}
        </p>
      )}
    </div>
  );
}

/**
 * The member on this airdrop: their points and rank while it runs, then their frozen share (or
 * why they have none) and its claim. `claim` is where the Claim control goes once the round is open.
 */
export function AirdropStandingCard({
  phase,
  standing,
  asset,
  minPoints,
  onTeam,
  claimDeadline,
  leaderboardTo,
  signInTo,
  claim,
}: {
  phase: AirdropPhase;
  standing: AirdropStanding | null;
  asset: string;
  minPoints: number;
  onTeam: boolean;
  claimDeadline: Date | string;
  leaderboardTo: string;
  signInTo: string;
  claim?: ReactNode;
}) {
  const frozen = isFrozenPhase(phase);
  return (
    <Card role="region" aria-labelledby="standing-title">
      <CardHeader>
        <CardTitle id="standing-title" className="text-base">
          {frozen ? "Your share" : "Your points and rank"}
        </CardTitle>
        {!standing && <CardDescription>Sign in to take part and see your points and rank.</CardDescription>}
      </CardHeader>
      <CardContent className="pt-3">
        {!standing ? (
          <Button asChild variant="brand" className="w-full">
            <Link to={signInTo}>Sign in</Link>
          </Button>
        ) : frozen ? (
          <Frozen phase={phase} standing={standing} asset={asset} minPoints={minPoints} onTeam={onTeam} claimDeadline={claimDeadline} claim={claim} />
        ) : (
          <Running phase={phase} standing={standing} minPoints={minPoints} onTeam={onTeam} leaderboardTo={leaderboardTo} />
        )}
      </CardContent>
    </Card>
  );
}

/** What the airdrop pays, how it is shared, who gets a share and when claims close. */
export function AirdropPaysCard({
  airdrop,
  claimDeadline,
}: {
  airdrop: { asset: string; total: bigint; rule: AirdropRule; rankAmounts: string[] | null; minPoints: number };
  claimDeadline: Date | string;
}) {
  const symbol = airdrop.asset.split(":")[0];
  const ranks = airdrop.rankAmounts ?? [];
  return (
    <Card>
      <CardHeader>
        <CardDescription className="flex items-center gap-2">
          <Coins className="size-4 text-lime-600 dark:text-brand" aria-hidden /> Pays
        </CardDescription>
        <CardTitle className="text-2xl tabular-nums">{tokenAmount(airdrop.total, airdrop.asset)}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 pt-3 text-sm text-muted-foreground">
        <p>
          {airdrop.rule === "pro_rata"
            ? "Shared in proportion to points when it ends: more points, a bigger share."
            : `To the top ${ranks.length} ${ranks.length === 1 ? "rank" : "ranks"} on its board when it ends: ${ranks
                .slice(0, 5)
                .map((amount, i) => `#${i + 1} ${formatAmount(BigInt(amount))}`)
                .join(", ")}${ranks.length > 5 ? ", …" : ""} ${symbol}.`}
        </p>
        <p>
          {airdrop.minPoints > 0 ? `A share needs at least ${airdrop.minPoints.toLocaleString("en")} points. ` : ""}
          The project&apos;s own team gets no share. Claims close <LocalTime value={claimDeadline} />.
        </p>
      </CardContent>
    </Card>
  );
}

/**
 * The frozen allocation: its Merkle root, how many can claim, what the tree pays and what went
 * back to the project, and the two downloads. `sweep` is where the team's Sweep control goes.
 */
export function AllocationCard({
  frozen,
  asset,
  treeTo,
  csvTo,
  sweep,
}: {
  frozen: {
    root: string | null;
    leaves: number;
    claimable: bigint;
    unclaimable: bigint;
    frozenAt: Date | string;
    /** How many members on its board were kept out, by reason (counts only). */
    excludedCounts?: Record<string, number> | null;
  };
  asset: string;
  treeTo: string;
  csvTo: string;
  sweep?: ReactNode;
}) {
  return (
    <Card role="region" aria-labelledby="allocation-title">
      <CardHeader>
        <CardTitle id="allocation-title" className="text-base">
          Allocation
        </CardTitle>
        <CardDescription>
          Frozen <LocalTime value={frozen.frozenAt} /> from the board.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 pt-3">
        <dl className="divide-y">
          <Stat label="Members who can claim">{frozen.leaves.toLocaleString("en")}</Stat>
          <Stat label="Claimable">{tokenAmount(frozen.claimable, asset)}</Stat>
          <Stat label="Back to the project">{tokenAmount(frozen.unclaimable, asset)}</Stat>
        </dl>
        <ExcludedLine counts={frozen.excludedCounts} />
        <div className="grid gap-1 text-sm">
          <span className="text-muted-foreground">Merkle root</span>
          {frozen.root ? <code className="font-mono text-xs break-all">{frozen.root}</code> : <span>None: nobody had a share to claim.</span>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={csvTo} download>
              <Download aria-hidden /> Allocation (CSV)
            </a>
          </Button>
          {frozen.root && (
            <Button asChild variant="outline" size="sm">
              <a href={treeTo} download>
                <Download aria-hidden /> Merkle tree (JSON)
              </a>
            </Button>
          )}
        </div>
        {sweep}
      </CardContent>
    </Card>
  );
}
