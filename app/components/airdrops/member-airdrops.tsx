import type { ReactNode } from "react";
import { LocalTime } from "~/components/campaigns/local-time";
import { TxHash } from "~/components/chain/tx-progress";
import type { MemberAirdrop, MemberAirdropGroup } from "~/modules/airdrops/airdrop-pages";
import { shortAddress } from "~/wallet/chains";
import { AirdropClaim, type ClaimableShare } from "./airdrop-claim";
import { AirdropGrid } from "./airdrop-card";
import { tokenAmount } from "./airdrop-status";

const GROUPS: Record<MemberAirdropGroup, { title: string; description: string }> = {
  claimable: { title: "Claimable", description: "Your frozen share is open to claim on chain, until claims close." },
  waiting: {
    title: "Frozen, claims not open yet",
    description: "Your share is frozen; you can claim it once its round is opened on chain, shortly after the freeze.",
  },
  claimed: { title: "Claimed", description: "Shares you claimed, with their transaction." },
  eligible: { title: "Eligible", description: "Airdrops where you have points: each shares its total by points when it ends." },
  missed: { title: "Missed", description: "Airdrops you took part in without a share to claim, or not claimed in time." },
};

/** A line under the card, above its link (the card's link covers the rest of it). */
function Footer({ children }: { children: ReactNode }) {
  return <div className="relative z-10 border-t pt-3 text-sm">{children}</div>;
}

function standing(a: MemberAirdrop): ReactNode {
  const share = a.share;
  const amount = share ? tokenAmount(share.amount, a.asset) : "";
  switch (a.group) {
    case "claimable":
      return (
        <>
          <span className="font-medium">{amount}</span> to <span className="font-mono">{shortAddress(share?.account)}</span>: claim it until{" "}
          <LocalTime value={a.claimDeadline} />.
        </>
      );
    case "waiting":
      return (
        <>
          <span className="font-medium">{amount}</span> frozen for <span className="font-mono">{shortAddress(share?.account)}</span>, rank #{share?.rank}.
        </>
      );
    case "claimed":
      return (
        <>
          <span className="font-medium">{amount}</span> claimed <LocalTime value={share!.claim!.claimedAt} dateOnly />, transaction{" "}
          <TxHash hash={share!.claim!.txHash} chainId={share!.claim!.chainId} short />
        </>
      );
    case "eligible":
      return (
        <>
          <span className="font-medium tabular-nums">{(a.points ?? 0).toLocaleString("en")} points</span>, rank #{(a.rank ?? 0).toLocaleString("en")}
          {a.phase === "ended" && " (final: its allocation is being frozen)"}.
        </>
      );
    case "missed":
      switch (a.missed) {
        case "no_wallet":
          return `No wallet was linked at the freeze: your share (${amount}) went back to the project.`;
        case "below_minimum":
          return `Your ${(a.points ?? 0).toLocaleString("en")} points were below the ${a.minPoints.toLocaleString("en")} a share needed.`;
        case "team":
          return "You are on the project's team, which gets no share.";
        case "not_opened":
          return `Its claims round could not be opened in time: your share (${amount}) went back to the project.`;
        case "previous_chain":
          return `Its claims round is from a previous chain: it is not on the chain running now, so your share (${amount}) cannot be claimed.`;
        default:
          return `Your share (${amount}) was not claimed before claims closed.`;
      }
  }
}

/** The member's airdrops, by group (only those with airdrops in them), each card saying where they stand; a claimable one with its Claim button. */
export function MemberAirdropSections({ airdrops, now, claims }: { airdrops: MemberAirdrop[]; now: Date | string; claims: ClaimableShare[] }) {
  return (
    <>
      {(Object.keys(GROUPS) as MemberAirdropGroup[]).map((group) => {
        const items = airdrops.filter((a) => a.group === group);
        if (items.length === 0) return null;
        return (
          <section key={group} aria-labelledby={`group-${group}`} className="grid gap-3">
            <div className="grid gap-1">
              <h2 id={`group-${group}`} className="text-lg font-semibold">
                {GROUPS[group].title} <span className="text-sm font-normal text-muted-foreground tabular-nums">({items.length})</span>
              </h2>
              <p className="text-sm text-muted-foreground">{GROUPS[group].description}</p>
            </div>
            <AirdropGrid
              airdrops={items}
              now={now}
              headingLevel={3}
              label={GROUPS[group].title}
              empty={{ title: "" }}
              footer={(a) => {
                const claim = a.group === "claimable" ? claims.find((c) => c.airdropId === a.id) : undefined;
                return (
                  <Footer>
                    <div className="grid gap-3">
                      <p>{standing(a)}</p>
                      {claim && <AirdropClaim share={claim} />}
                    </div>
                  </Footer>
                );
              }}
            />
          </section>
        );
      })}
    </>
  );
}
