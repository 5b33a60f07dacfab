import type { Route } from "./+types/project-index";
import { ProjectContainers } from "~/components/containers/project-containers";
import { CrusadeGrid } from "~/components/crusades/crusade-grid";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { can } from "~/modules/projects/permissions.server";
import { listCrusades } from "~/modules/tasks/campaigns.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Crusades", ({ project }) => ({
    page: `${project.name} crusades`,
    description: `${project.name}'s crusades: series of tasks done in order.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role } = await projectPage({ db, slug: params.project, userId });
  return {
    project: { slug: project.slug, name: project.name },
    signedIn: userId !== null,
    canManage: can(role, "quests.manage"),
    crusades: await listCrusades({ db, projectId: project.id, withDrafts: can(role, "drafts.view"), userId }),
  };
}

export default function ProjectCrusades({ loaderData: { project, signedIn, canManage, crusades } }: Route.ComponentProps) {
  return (
    <ProjectContainers
      project={project}
      title="Crusades"
      description={`Crusades of ${project.name}.`}
      create={canManage ? { label: "New crusade", to: route("crusades.new", { project: project.slug }) } : null}
      count={crusades.length}
    >
      {(create) => (
        <CrusadeGrid
          crusades={crusades}
          signedIn={signedIn}
          showProject={false}
          emptyText={
            canManage ? "Create a crusade from the project's tasks, in the order members do them." : `${project.name} has not published a crusade yet.`
          }
          emptyAction={create}
        />
      )}
    </ProjectContainers>
  );
}
