import { and, eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { campaign } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import type { FieldErrors } from "~/lib/result";
import type { Task } from "./completions.server";
import type { TaskInput } from "./tasks.server";

const utc = (date: Date) =>
  `${date.toLocaleString("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })} UTC`;

/**
 * A task in a campaign or an airdrop runs inside its window: an opening before the container's start
 * or a closing after its end is refused on that date's field (the task would otherwise be on offer,
 * or its on-chain evidence counted, while the campaign is not running).
 */
export async function taskWindowRefusals({
  db,
  projectId,
  input,
}: {
  db: Db;
  projectId: string;
  input: Pick<TaskInput, "startsAt" | "endsAt" | "campaignId" | "airdropId">;
}): Promise<FieldErrors> {
  if (!input.startsAt && !input.endsAt) return {};
  const container = await containerWindow(db, { projectId, ...input });
  if (!container) return {};
  const message = `The ${input.campaignId ? "campaign" : "airdrop"} runs from ${utc(container.startsAt)} to ${utc(container.endsAt)}: keep the task inside it`;
  const errors: FieldErrors = {};
  if (input.startsAt && (input.startsAt < container.startsAt || input.startsAt >= container.endsAt)) errors.startsAt = message;
  if (input.endsAt && (input.endsAt > container.endsAt || input.endsAt <= container.startsAt)) errors.endsAt = message;
  return errors;
}

/** The dates of the campaign or airdrop a task is in (of this project, when given), or null for none. */
async function containerWindow(
  db: Db,
  { projectId, campaignId, airdropId }: { projectId?: string; campaignId: string | null; airdropId?: string | null },
): Promise<{ startsAt: Date; endsAt: Date } | null> {
  if (campaignId) {
    const [c] = await db
      .select({ startsAt: campaign.startsAt, endsAt: campaign.endsAt })
      .from(campaign)
      .where(and(eq(campaign.id, campaignId), projectId ? eq(campaign.projectId, projectId) : undefined));
    return c ?? null;
  }
  if (airdropId) {
    const [a] = await db
      .select({ startsAt: airdrop.startsAt, endsAt: airdrop.endsAt })
      .from(airdrop)
      .where(and(eq(airdrop.id, airdropId), projectId ? eq(airdrop.projectId, projectId) : undefined));
    return a ?? null;
  }
  return null;
}

/**
 * When a task's on-chain evidence counts: the task's own start and end, else its campaign's or
 * airdrop's (a standalone task without dates: any time).
 */
export async function taskWindow(db: Db, t: Task): Promise<{ from: Date | null; to: Date | null }> {
  const container = t.startsAt && t.endsAt ? null : await containerWindow(db, t);
  return { from: t.startsAt ?? container?.startsAt ?? null, to: t.endsAt ?? container?.endsAt ?? null };
}
