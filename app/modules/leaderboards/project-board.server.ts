import { and, eq } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { boardKey, boardPage, type BoardRow, type BoardScope, type BoardWindow } from "./leaderboards.server";

/**
 * A project's boards as its own server reads them (the public API): the project's board, or one
 * of its campaigns' boards, in a window, through the exact reads every board screen uses
 * (`boardPage`, `rankOf`). Members hidden from public boards are not listed, as on the site; a
 * member's own rank is the one they would have.
 */

/** The board of the project, or of a campaign of the project; null when the campaign is not the project's. */
export async function projectBoardKey({
  db,
  projectId,
  campaignId,
  window,
}: {
  db: Db;
  projectId: string;
  campaignId?: string;
  window: BoardWindow;
}): Promise<string | null> {
  let scope: BoardScope = { kind: "project", projectId };
  if (campaignId !== undefined) {
    const [found] = await db
      .select({ id: campaign.id })
      .from(campaign)
      .where(and(eq(campaign.id, campaignId), eq(campaign.projectId, projectId)));
    if (!found) return null;
    scope = { kind: "campaign", campaignId };
  }
  return boardKey(scope, window);
}

/**
 * A page of a board from rank `offset + 1`, and the offset of the next page when there may be one.
 * Paged by rank (the board's own order): a member who climbs between two pages may be seen twice
 * or not at all, as on any live board.
 */
export async function projectBoardPage({ db, board, offset, limit }: { db: Db; board: string; offset: number; limit: number }) {
  const rows: BoardRow[] = await boardPage({ db, board, limit: limit + 1, offset });
  const more = rows.length > limit;
  return { rows: more ? rows.slice(0, limit) : rows, nextOffset: more ? offset + limit : null };
}
