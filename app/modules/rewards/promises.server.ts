import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { KEPT_NOTE } from "./promise-words";

/**
 * What a campaign or an airdrop has promised its members stays promised once one of them has
 * entered: a member outside the project's team has a pending or approved completion of one of a
 * campaign's tasks (every pool of a campaign pays for its tasks), or has earned points in an
 * airdrop. From then on, whatever the campaign's or airdrop's status, a token pool's escrow and an
 * airdrop's total can be raised, never lowered, and neither can be unpublished or moved to start
 * in the future (members would see their entries vanish or wait again). Every path that changes
 * them (forms, seed, any future API) goes through the domain functions that ask here.
 */

/** Whether a member outside the project's team has entered the campaign. */
export async function campaignEntered(db: Db, campaignId: string): Promise<boolean> {
  const result = await db.execute(sql`
    select exists (
      select 1 from completion c
      join task t on t.id = c.task_id
      join campaign k on k.id = t.campaign_id
      where t.campaign_id = ${campaignId} and c.status in ('pending', 'approved')
        and not exists (select 1 from project_member m where m.project_id = k.project_id and m.user_id = c.user_id)
    ) as entered`);
  return rowsOf(result)[0]?.entered === true;
}

/** Whether a member outside the project's team has earned points in the airdrop. */
export async function airdropEntered(db: Db, airdropId: string): Promise<boolean> {
  const result = await db.execute(sql`
    select exists (
      select 1 from leaderboard_entry e
      join airdrop a on a.id = ${airdropId}
      where e.board = ${boardKey({ kind: "airdrop", airdropId }, "all")} and e.score > 0
        and not exists (select 1 from project_member m where m.project_id = a.project_id and m.user_id = e.user_id)
    ) as entered`);
  return rowsOf(result)[0]?.entered === true;
}

/**
 * Whether an edit moves a start that has passed into the future, or unpublishes what was
 * published: what an entered campaign or airdrop refuses.
 */
export function takesBack(current: { publishedAt: Date | null; startsAt: Date }, next: { published: boolean; startsAt: Date }, now: Date) {
  if (current.publishedAt !== null && !next.published) return "unpublish" as const;
  if (current.startsAt <= now && next.startsAt > now) return "reschedule" as const;
  return null;
}

/**
 * Whether an edit sets a gate where there was none or changes one: what an entered campaign, its
 * pools and an entered airdrop refuse, so nobody loses the rewards they entered for. Removing a
 * gate (null) or leaving it out (undefined, unchanged) lets more members in and is always allowed.
 */
export function tightensGate(current: unknown, next: unknown) {
  return next != null && canonical(next) !== canonical(current ?? null);
}

/** JSON with every object's keys in one order: a gate read back from jsonb (its keys reordered) equals the form's. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What the campaign's reward screens say about its token pools: why they can only be raised now, or null. */
export async function poolsKeptNote(db: Db, c: { id: string; publishedAt: Date | null; startsAt: Date; endsAt: Date }, now = new Date()) {
  if (campaignStatus(c, now) === "live") return KEPT_NOTE.livePools;
  return (await campaignEntered(db, c.id)) ? KEPT_NOTE.enteredPools : null;
}
