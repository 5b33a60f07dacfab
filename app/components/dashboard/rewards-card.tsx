import { Gift } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import type { ShownReward } from "~/modules/rewards/member-rewards";
import { poolAmount } from "~/modules/rewards/pool-words";

/** The member's latest rewards won, with the way to all of them. */
export function RewardsCard({ rewards }: { rewards: ShownReward[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Latest rewards</CardTitle>
        <CardDescription>What campaigns paid you.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {rewards.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing won yet: complete a campaign&apos;s tasks to enter its rewards.</p>
        ) : (
          <ul className="grid gap-2">
            {rewards.map((r) => (
              <li key={r.poolId} className="flex items-baseline justify-between gap-3 text-sm">
                <Link
                  className="truncate text-muted-foreground hover:underline"
                  to={route("campaigns.show", { project: r.project.slug, campaign: r.campaign.slug })}
                >
                  {r.campaign.name}
                </Link>
                <span className="font-semibold whitespace-nowrap tabular-nums">{poolAmount(r, r.amount)}</span>
              </li>
            ))}
          </ul>
        )}
        <Button asChild variant="outline" className="justify-self-start">
          <Link to={route("rewards.index")}>
            <Gift aria-hidden /> All rewards
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
