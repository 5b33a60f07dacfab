import type { Db } from "~/lib/db.server";
import type { LeaderboardSettings } from "./leaderboard-settings.schema";
import { setLeaderboardVisibility } from "./leaderboards.server";
import { setLeaderboardDisplayName } from "./member-stats.server";

/** Saves Settings › Leaderboard in one transaction: visibility on public boards and the board name. */
export async function saveLeaderboardSettings({ db, userId, settings }: { db: Db; userId: string; settings: LeaderboardSettings }) {
  await db.transaction(async (tx) => {
    await setLeaderboardVisibility({ db: tx, userId, visible: settings.visible });
    await setLeaderboardDisplayName({ db: tx, userId, displayName: settings.displayName });
  });
}
