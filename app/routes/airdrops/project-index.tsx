import type { Route } from "./+types/project-index";
import { AirdropGrid } from "~/components/airdrops/airdrop-card";
import { ProjectContainers } from "~/components/containers/project-containers";
import { pageNow } from "~/lib/page-now.server";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { listAirdrops } from "~/modules/airdrops/airdrop-pages.server";
import { can } from "~/modules/projects/permissions.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Airdrops", ({ project }) => ({
    page: `${project.name} airdrops`,
    description: `${project.name}'s airdrops: allocations and claims on chain.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role } = await projectPage({ db, slug: params.project, userId });
  const now = pageNow();
  return {
    project: { slug: project.slug, name: project.name },
    canManage: can(role, "quests.manage"),
    now,
    airdrops: await listAirdrops({ db, projectId: project.id, withDrafts: can(role, "drafts.view"), now }),
  };
}

export default function ProjectAirdrops({ loaderData: { project, canManage, now, airdrops } }: Route.ComponentProps) {
  return (
    <ProjectContainers
      project={project}
      title="Airdrops"
      description={`Token airdrops of ${project.name}: their tasks earn points, and each shares its total by points when it ends.`}
      create={canManage ? { label: "New airdrop", to: route("airdrops.new", { project: project.slug }) } : null}
      count={airdrops.length}
    >
      {(create) => (
        <AirdropGrid
          airdrops={airdrops}
          now={now}
          showProject={false}
          empty={{
            title: "No airdrops yet",
            text: canManage ? "Create an airdrop, then add the tasks that earn its points." : `${project.name} has not published an airdrop yet.`,
            action: create,
          }}
        />
      )}
    </ProjectContainers>
  );
}
