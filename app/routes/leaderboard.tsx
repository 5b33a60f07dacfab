import type { Route } from "./+types/leaderboard";
import { BoardScreen } from "~/components/leaderboards/board-screen";
import { pageParam } from "~/components/pagination";
import { publicMeta } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { boardWindowParam, loadBoard, redirectPastLastPage } from "~/modules/leaderboards/board-screen.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  const appName = args.matches[0].loaderData.appName;
  return publicMeta(args, {
    page: "Leaderboard",
    description: `The members with the most XP on ${appName}, over all time, the last 30 days and the last 7 days.`,
  });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const session = await getSession(context);
  const userId = session?.user.id ?? null;
  const db = context.get(servicesContext).database.db;
  const board = await loadBoard({ db, scope: { kind: "global" }, window: boardWindowParam(url), page: pageParam(url), userId });
  redirectPastLastPage(url, board.board.page, board.board.rows.length);
  return { ...board, userId };
}

export default function GlobalLeaderboard({ loaderData }: Route.ComponentProps) {
  return (
    <BoardScreen
      title="Leaderboard"
      description="Members ranked by the XP they earned in every project."
      window={loaderData.window}
      board={loaderData.board}
      userId={loaderData.userId}
      hidden={loaderData.hidden}
    />
  );
}
