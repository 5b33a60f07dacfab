import { Gift } from "lucide-react";
import type { Route } from "./+types/index";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Pagination, pageParam } from "~/components/pagination";
import { MemberRewardList, RewardFilters } from "~/components/rewards/member-reward-list";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import type { RewardFilter } from "~/modules/rewards/member-rewards";
import { memberRewards, rewardFilterSchema } from "~/modules/rewards/member-rewards.server";
import { withDecimals } from "~/modules/rewards/pool-decimals.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Rewards") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const { database, chains } = context.get(servicesContext);
  const url = new URL(request.url);
  const filter = rewardFilterSchema.parse(url.searchParams.get("status") ?? "all");
  const rewards = await memberRewards({ db: database.db, userId: user.id, filter, page: pageParam(url) });
  return { filter, ...rewards, items: withDecimals(chains, rewards.items) };
}

const FILTERS: { value: RewardFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "won", label: "Won" },
  { value: "pending", label: "In the running" },
  { value: "not_won", label: "Not won" },
];

const EMPTY: Record<RewardFilter, string> = {
  all: "Complete a campaign's tasks to enter its rewards: what you win shows here, and tokens land on your Balance.",
  won: "Nothing won yet. Rewards are paid when their campaign ends.",
  pending: "You are in the running for no reward right now: complete every task of a live campaign to enter its rewards.",
  not_won: "No raffle you entered has been drawn without you.",
};

/** Rewards: everything the member won, is in the running for, or entered and did not win, across projects. */
export default function Rewards({ loaderData: { filter, items, hasMore, page } }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Rewards" description="What campaigns paid you, what you are in the running for, and the raffles you entered." />
      <RewardFilters filter={filter} options={FILTERS} />
      {items.length === 0 ? (
        <EmptyState icon={Gift} title={filter === "all" ? "No rewards yet" : "Nothing here"}>
          {EMPTY[filter]}
        </EmptyState>
      ) : (
        <MemberRewardList items={items} />
      )}
      <Pagination page={page} hasMore={hasMore} />
    </>
  );
}
