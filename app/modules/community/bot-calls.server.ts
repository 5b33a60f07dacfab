import type { Db } from "~/lib/db.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type Result } from "~/lib/result";

/** What a project's team may ask of Discord and Telegram through its pages in an hour: saves, checks, new rules. */
export const BOT_CALLS_PER_HOUR = 60;

/**
 * One of the project's hourly calls to Discord or Telegram from its pages (each save, check or new
 * rule calls them with the project's bot token): a flood is refused before it reaches them, so
 * their rate limits stay for the role job and the members' checks.
 */
export async function takeBotCall({ db, projectId, now = new Date() }: { db: Db; projectId: string; now?: Date }): Promise<Result> {
  const claim = await takeRateLimit({ db, key: `community-bot-calls:${projectId}`, max: BOT_CALLS_PER_HOUR, windowSeconds: 3600, now: now.getTime() });
  if (claim.ok) return ok();
  const minutes = Math.ceil(claim.retryAfterSeconds / 60);
  return failure("limited", `Too many saves and checks of this project's bots: try again in ${minutes} min.`, claim.retryAfterSeconds);
}
