import type { Route } from "./+types/index";
import { CampaignGrid } from "~/components/campaigns/campaign-grid";
import { FilterTabs } from "~/components/campaigns/filter-tabs";
import { PageHeader } from "~/components/page-header";
import { pageNow } from "~/lib/page-now.server";
import { publicMeta } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import type { CampaignStatus } from "~/modules/tasks/campaign-status";
import { listCampaigns } from "~/modules/tasks/campaigns.server";
import { withProgress } from "~/modules/tasks/quest-pages.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

const STATUSES = ["live", "scheduled", "ended"] as const satisfies CampaignStatus[];
const TABS = [
  { value: "", label: "All" },
  { value: "live", label: "Live" },
  { value: "scheduled", label: "Scheduled" },
  { value: "ended", label: "Ended" },
];
const EMPTY: Record<string, string> = { live: "No live campaigns right now", scheduled: "No campaigns coming up", ended: "No ended campaigns" };

export function meta(args: Route.MetaArgs) {
  return publicMeta(args, { page: "Campaigns", description: "Live and upcoming campaigns of Web3 projects: complete their tasks to earn XP and rewards." });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const session = await getSession(context);
  const param = new URL(request.url).searchParams.get("status");
  const status = STATUSES.find((s) => s === param);
  const now = pageNow();
  const campaigns = await listCampaigns({ db, status, now });
  return { status: status ?? "", now, campaigns: await withProgress({ db, campaigns, userId: session?.user.id ?? null }) };
}

export default function CampaignsIndex({ loaderData: { status, now, campaigns } }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Campaigns" description="Time-boxed quests from every project: complete their tasks to earn XP." />
      <div className="grid gap-6">
        <FilterTabs param="status" label="Campaign status" tabs={TABS} current={status} />
        <CampaignGrid
          campaigns={campaigns}
          now={now}
          emptyTitle={EMPTY[status] ?? "No campaigns yet"}
          emptyText="When projects publish campaigns, they appear here."
        />
      </div>
    </>
  );
}
