import { Coins } from "lucide-react";
import { Link } from "react-router";
import { route } from "~/lib/routes";
import { assetParts, type Asset } from "~/modules/ledger/assets";
import { rewardAssetLabel, rewardsPaidIn } from "~/modules/projects/reward-asset";

const linkClass = "font-medium text-foreground underline underline-offset-4";

/** "Rewards are paid in USDC on Questline Local B", on the project's public page and its Rewards page; nothing when none is chosen. */
export function RewardsPaidIn({ asset, className }: { asset: Asset | null; className?: string }) {
  const words = rewardsPaidIn(asset);
  if (!words) return null;
  return (
    <p className={className ?? "flex items-center gap-2 text-sm text-muted-foreground"}>
      <Coins className="size-4 shrink-0 text-lime-600 dark:text-brand" aria-hidden />
      <span>{words}</span>
    </p>
  );
}

/**
 * For the project's owners and admins on its Rewards page: the rewards token, or where to choose
 * one; and when the treasury holds none of it, how to fund it (the Fund form beside it from their
 * own balance, which a deposit on Balance fills; QUEST also by the project's own deposit card).
 */
export function RewardsTokenStatus({
  projectSlug,
  asset,
  treasuryHolds,
  ownHolds,
}: {
  projectSlug: string;
  asset: Asset | null;
  /** What the treasury holds of `asset`, in its base units. */
  treasuryHolds: bigint;
  /** What the viewer has available of `asset` on their own balance. */
  ownHolds: bigint;
}) {
  const settings = (
    <Link className={linkClass} to={route("projects.edit", { project: { slug: projectSlug } })}>
      the project&apos;s settings
    </Link>
  );
  if (!asset) {
    return (
      <p className="rounded-lg border bg-muted/40 p-3 text-sm text-muted-foreground">
        No rewards token is chosen yet: choose the chain and token the rewards are paid in from {settings}.
      </p>
    );
  }
  const label = rewardAssetLabel(asset);
  const { symbol } = assetParts(asset);
  return (
    <div className="grid gap-1 rounded-lg border bg-muted/40 p-3">
      <RewardsPaidIn asset={asset} className="flex items-center gap-2 text-sm font-medium" />
      {treasuryHolds > 0n ? (
        <p className="text-sm text-muted-foreground">Change it in {settings}.</p>
      ) : (
        <p className="text-sm text-muted-foreground">
          The treasury holds no {label} yet.{" "}
          {ownHolds > 0n ? (
            <>Send some from your balance with Fund below.</>
          ) : (
            <>
              Deposit {symbol} from your wallet on{" "}
              <Link className={linkClass} to={route("balance")}>
                Balance
              </Link>
              , then send it here with Fund.
            </>
          )}
          {symbol === "QUEST" && <> Or deposit it from your wallet straight to the project below.</>}
        </p>
      )}
    </div>
  );
}
