import { data } from "react-router";
import type { Route } from "./+types/leaderboard";
import { BackLink, HiddenNotice, ViewerNote } from "~/components/leaderboards/board-screen";
import { FirstCompleters } from "~/components/leaderboards/first-completers";
import { PageHeader } from "~/components/page-header";
import { pageParam } from "~/components/pagination";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { redirectPastLastPage } from "~/modules/leaderboards/board-screen.server";
import { leaderboardPreferenceOf } from "~/modules/leaderboards/member-stats.server";
import { authorize } from "~/modules/projects/permissions.server";
import { taskBoard } from "~/modules/tasks/task-board.server";
import { taskWithProject } from "~/modules/tasks/tasks.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Leaderboard", ({ task }) => ({
    page: `${task.title} leaderboard`,
    description: `Members ranked by the XP ${task.title} gave them.`,
  }));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const found = await taskWithProject({ db, taskId: params.task });
  if (!found) throw data("This task does not exist.", { status: 404 });
  const userId = (await getSession(context))?.user.id ?? null;
  // A draft is for the project's team only.
  if (!found.task.publishedAt) await authorize({ db, projectId: found.project.id, userId, action: "drafts.view" });
  const url = new URL(request.url);
  const [board, preference] = await Promise.all([
    taskBoard({ db, taskId: found.task.id, userId, page: pageParam(url) }),
    userId ? leaderboardPreferenceOf({ db, userId }) : null,
  ]);
  redirectPastLastPage(url, board.page, board.rows.length);
  return { board, userId, hidden: preference ? !preference.visible : false, task: { id: found.task.id, title: found.task.title }, project: found.project };
}

export default function TaskLeaderboard({ loaderData: { board, userId, hidden, task, project } }: Route.ComponentProps) {
  return (
    <>
      <BackLink to={route("tasks.show", [task.id])}>{task.title}</BackLink>
      <PageHeader title={`${task.title} leaderboard`} description={`The first members to complete this ${project.name} task.`} />
      <div className="grid gap-4">
        {hidden && <HiddenNotice />}
        <ViewerNote signedIn={userId !== null} ranked={board.mine !== null} hasRows={board.rows.length > 0} unranked="You have not completed this task yet." />
        <FirstCompleters data={board} userId={userId} />
      </div>
    </>
  );
}
