import { Plus } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/tasks";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import { ProjectTaskList } from "~/components/tasks/project-task-list";
import { Button } from "~/components/ui/button";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { can } from "~/modules/projects/permissions.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import { TASK_CONTAINER_KINDS, TASK_LIST_STATUSES, type TaskContainerKind, type TaskListStatus } from "~/modules/tasks/project-tasks";
import { projectTasks } from "~/modules/tasks/project-tasks.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `${loaderData.project.name} tasks` : "Tasks") }];
}

/** A query parameter that must be one of `allowed`, else ignored. */
const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  (allowed as readonly string[]).includes(value ?? "") ? (value as T) : undefined;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role } = await projectPage({ db, slug: params.project, userId });
  const search = new URL(request.url).searchParams;
  const withDrafts = can(role, "drafts.view");
  const showPending = can(role, "submissions.review");
  const container = oneOf<TaskContainerKind>(search.get("in"), TASK_CONTAINER_KINDS);
  // Drafts are a status only the team may filter by; for others the filter is ignored.
  const status = oneOf<TaskListStatus>(search.get("status"), withDrafts ? TASK_LIST_STATUSES : TASK_LIST_STATUSES.filter((s) => s !== "draft"));
  const q = (search.get("q") ?? "").trim().slice(0, 100);
  return {
    project: { slug: project.slug, name: project.name },
    canManage: can(role, "quests.manage"),
    showDrafts: withDrafts,
    showPending,
    filters: { container: container ?? "", status: status ?? "", q },
    // How many wait for review is the team's to know.
    rows: (await projectTasks({ db, projectId: project.id, withDrafts, container, status, q: q || undefined })).map((row) =>
      showPending ? row : { ...row, pending: 0 },
    ),
  };
}

/** Every task of a project, in a campaign, a crusade or on its own: what holds it, its type, XP, status and completions. */
export default function ProjectTasks({ loaderData: { project, canManage, showDrafts, showPending, filters, rows } }: Route.ComponentProps) {
  const create = canManage ? (
    <Button asChild>
      <Link to={route("tasks.new", { project: project.slug })}>
        <Plus /> New task
      </Link>
    </Button>
  ) : undefined;
  return (
    <>
      <ProjectCrumb project={project} />
      <PageHeader title="Tasks" description={`Every task of ${project.name}, wherever it is.`} actions={create} />
      <ProjectTaskList projectSlug={project.slug} rows={rows} filters={filters} showDrafts={showDrafts} showPending={showPending} create={create} />
    </>
  );
}
