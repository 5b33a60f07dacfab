import { invalid, type FieldFailure } from "~/lib/result";
import { formText, parseForm } from "~/lib/forms";
import { zoneDateFields } from "./local-datetime";
import { campaignSchema, crusadeSchema } from "./quests.schema";

/** What a form sent, as typed, to show again beside its errors. */
export type CampaignValues = { name: string; slug: string; description: string; startsAt: string; endsAt: string; published: boolean };
export type CrusadeValues = { name: string; slug: string; description: string; bonusXp: string; published: boolean; taskIds: string[] };

/** The campaign form: its values as typed and the parsed input (dates in the member's time zone). */
export function parseCampaignForm(formData: FormData) {
  const values: CampaignValues = {
    name: formText(formData, "name"),
    slug: formText(formData, "slug"),
    description: formText(formData, "description"),
    startsAt: formText(formData, "startsAt"),
    endsAt: formText(formData, "endsAt"),
    published: formData.get("published") === "on",
  };
  return { values, form: parseForm(campaignSchema, zoneDateFields(formData, ["startsAt", "endsAt"])) };
}

/** The crusade form: its values as typed (task ids in order) and the parsed input. */
export function parseCrusadeForm(formData: FormData) {
  const values: CrusadeValues = {
    name: formText(formData, "name"),
    slug: formText(formData, "slug"),
    description: formText(formData, "description"),
    bonusXp: formText(formData, "bonusXp"),
    published: formData.get("published") === "on",
    taskIds: formText(formData, "taskIds")
      .split(/[\s,]+/)
      .filter(Boolean),
  };
  return { values, form: parseForm(crusadeSchema, formData) };
}

/**
 * A campaign, task or airdrop created with its end already past would hold work nobody can do:
 * the create forms refuse it on the end's field. (Editing may still move an end earlier, to close
 * something early.)
 */
export function endAlreadyPast(endsAt: Date | null | undefined, now: Date): FieldFailure | null {
  return endsAt && endsAt <= now ? invalid("endsAt", "That time has passed: choose a later end") : null;
}
