import { and, eq, gt, lte, notExists, sql } from "drizzle-orm";
import { airdrop, airdropRound } from "#db/schema/airdrops";
import { appEvent } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { emitEvents } from "./emit.server";

/** How long before an airdrop's claim deadline its members are told claims are closing. */
export const CLOSING_WINDOW_MS = 24 * 60 * 60 * 1000;

const closingKey = (airdropId: string) => `airdrop.closing:${airdropId}`;

/**
 * The events no change makes happen, only time: `airdrop.closing` for each airdrop whose round is
 * open on chain and whose claims close within CLOSING_WINDOW_MS of `now` (once per airdrop, by its
 * key). Run every minute (a job); returns how many events it recorded. Airdrops told already are
 * left out by the query, so a run with nothing due reads a few index rows.
 */
export async function emitDueEvents({ db, now = new Date() }: { db: Db; now?: Date }): Promise<number> {
  const closing = await db
    .select({ id: airdrop.id, projectId: airdrop.projectId, name: airdrop.name, claimDeadline: airdrop.claimDeadline })
    .from(airdrop)
    .innerJoin(airdropRound, eq(airdropRound.airdropId, airdrop.id))
    .where(
      and(
        eq(airdropRound.step, "open"),
        gt(airdrop.claimDeadline, now),
        lte(airdrop.claimDeadline, new Date(now.getTime() + CLOSING_WINDOW_MS)),
        notExists(
          db
            .select({ one: sql`1` })
            .from(appEvent)
            .where(eq(appEvent.key, sql`'airdrop.closing:' || ${airdrop.id}`)),
        ),
      ),
    );
  return emitEvents(
    db,
    closing.map((a) => ({
      type: "airdrop.closing" as const,
      key: closingKey(a.id),
      projectId: a.projectId,
      data: { airdropId: a.id, title: a.name.slice(0, 300), claimDeadline: a.claimDeadline.toISOString() },
    })),
  );
}
