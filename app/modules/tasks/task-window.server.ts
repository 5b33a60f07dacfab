import { and, eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { campaign } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import type { FieldErrors } from "~/lib/result";
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
  const [container] = input.campaignId
    ? await db
        .select({ startsAt: campaign.startsAt, endsAt: campaign.endsAt })
        .from(campaign)
        .where(and(eq(campaign.id, input.campaignId), eq(campaign.projectId, projectId)))
    : input.airdropId
      ? await db
          .select({ startsAt: airdrop.startsAt, endsAt: airdrop.endsAt })
          .from(airdrop)
          .where(and(eq(airdrop.id, input.airdropId), eq(airdrop.projectId, projectId)))
      : [];
  if (!container) return {};
  const message = `The ${input.campaignId ? "campaign" : "airdrop"} runs from ${utc(container.startsAt)} to ${utc(container.endsAt)}: keep the task inside it`;
  const errors: FieldErrors = {};
  if (input.startsAt && (input.startsAt < container.startsAt || input.startsAt >= container.endsAt)) errors.startsAt = message;
  if (input.endsAt && (input.endsAt > container.endsAt || input.endsAt <= container.startsAt)) errors.endsAt = message;
  return errors;
}
