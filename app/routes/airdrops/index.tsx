import { HandCoins, LogIn } from "lucide-react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/index";
import { AirdropGrid } from "~/components/airdrops/airdrop-card";
import { MemberAirdropSections } from "~/components/airdrops/member-airdrops";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { pageNow } from "~/lib/page-now.server";
import { publicMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { listAirdrops } from "~/modules/airdrops/airdrop-pages.server";
import { memberAirdrops } from "~/modules/airdrops/member-airdrops.server";
import { claimableShares } from "~/modules/airdrops/round-view.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return publicMeta(args, { page: "Airdrop", description: "Airdrops open to members: see what you are allocated and claim it on chain." });
}

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const now = pageNow();
  const [mine, live] = await Promise.all([userId ? memberAirdrops({ db, userId, now }) : null, listAirdrops({ db, live: true, notJoinedBy: userId, now })]);
  const claims = userId ? await claimableShares({ db, userId, airdrops: (mine ?? []).filter((a) => a.group === "claimable") }) : [];
  return { signedIn: userId !== null, now, mine, live, claims };
}

/** Airdrop: the member's airdrops by where they stand (claimable, claimed, eligible, missed), then every live airdrop to join. */
export default function Airdrops({ loaderData: { signedIn, now, mine, live, claims } }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <>
      <PageHeader
        title="Airdrop"
        description="Token airdrops from every project: earn points with their tasks, then claim your share on chain when they end."
      />
      <div className="grid gap-10">
        {!signedIn ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-4 shadow-sm">
            <p className="text-sm text-muted-foreground">Sign in to see your points, your shares and what you can claim.</p>
            <Button asChild variant="brand">
              <Link to={route("login", { redirectTo: location.pathname })}>
                <LogIn aria-hidden /> Sign in
              </Link>
            </Button>
          </div>
        ) : mine && mine.length > 0 ? (
          <MemberAirdropSections airdrops={mine} now={now} claims={claims} />
        ) : (
          <EmptyState icon={HandCoins} title="No airdrops of yours yet">
            Complete a task of a live airdrop below to earn its points: your share is worked out from them when it ends.
          </EmptyState>
        )}
        <section aria-labelledby="live-heading" className="grid gap-3">
          <div className="grid gap-1">
            <h2 id="live-heading" className="text-lg font-semibold">
              Live airdrops to join
            </h2>
            <p className="text-sm text-muted-foreground">Running now, ending soonest first{signedIn ? ", leaving out those you have points in" : ""}.</p>
          </div>
          <AirdropGrid
            airdrops={live}
            now={now}
            headingLevel={3}
            label="Live airdrops to join"
            empty={{ title: "No live airdrop to join right now", text: "When projects run airdrops, they appear here." }}
          />
        </section>
      </div>
    </>
  );
}
