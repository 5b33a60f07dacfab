import type { Route } from "./+types/project-index";
import { CampaignGrid } from "~/components/campaigns/campaign-grid";
import { ProjectContainers } from "~/components/containers/project-containers";
import { pageNow } from "~/lib/page-now.server";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { can } from "~/modules/projects/permissions.server";
import { listCampaigns } from "~/modules/tasks/campaigns.server";
import { projectPage, withProgress } from "~/modules/tasks/quest-pages.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Campaigns", ({ project }) => ({
    page: `${project.name} campaigns`,
    description: `${project.name}'s campaigns: their tasks, dates and rewards.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role } = await projectPage({ db, slug: params.project, userId });
  const now = pageNow();
  const campaigns = await listCampaigns({ db, projectId: project.id, withDrafts: can(role, "drafts.view"), now });
  return {
    project: { slug: project.slug, name: project.name },
    canManage: can(role, "quests.manage"),
    now,
    campaigns: await withProgress({ db, campaigns, userId }),
  };
}

export default function ProjectCampaigns({ loaderData: { project, canManage, now, campaigns } }: Route.ComponentProps) {
  return (
    <ProjectContainers
      project={project}
      title="Campaigns"
      description={`Campaigns of ${project.name}.`}
      create={canManage ? { label: "New campaign", to: route("campaigns.new", { project: project.slug }) } : null}
      count={campaigns.length}
    >
      {(create) => (
        <CampaignGrid
          campaigns={campaigns}
          now={now}
          showProject={false}
          emptyTitle="No campaigns yet"
          emptyText={canManage ? "Create a campaign, then add tasks to it." : `${project.name} has not published a campaign yet.`}
          emptyAction={create}
        />
      )}
    </ProjectContainers>
  );
}
