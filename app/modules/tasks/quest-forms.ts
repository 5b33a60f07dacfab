import { parseForm } from "~/lib/forms";
import { zoneDateFields } from "./local-datetime";
import { campaignSchema, crusadeSchema } from "./quests.schema";

/** What a form sent, as typed, to show again beside its errors. */
export type CampaignValues = { name: string; slug: string; description: string; startsAt: string; endsAt: string; published: boolean };
export type CrusadeValues = { name: string; slug: string; description: string; bonusXp: string; published: boolean; taskIds: string[] };

const text = (formData: FormData, name: string) => String(formData.get(name) ?? "");

/** The campaign form: its values as typed and the parsed input (dates in the member's time zone). */
export function parseCampaignForm(formData: FormData) {
  const values: CampaignValues = {
    name: text(formData, "name"),
    slug: text(formData, "slug"),
    description: text(formData, "description"),
    startsAt: text(formData, "startsAt"),
    endsAt: text(formData, "endsAt"),
    published: formData.get("published") === "on",
  };
  return { values, form: parseForm(campaignSchema, zoneDateFields(formData, ["startsAt", "endsAt"])) };
}

/** The crusade form: its values as typed (task ids in order) and the parsed input. */
export function parseCrusadeForm(formData: FormData) {
  const values: CrusadeValues = {
    name: text(formData, "name"),
    slug: text(formData, "slug"),
    description: text(formData, "description"),
    bonusXp: text(formData, "bonusXp"),
    published: formData.get("published") === "on",
    taskIds: text(formData, "taskIds").split(/[\s,]+/).filter(Boolean),
  };
  return { values, form: parseForm(crusadeSchema, formData) };
}
