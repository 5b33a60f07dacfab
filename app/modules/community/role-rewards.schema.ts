import { z } from "zod";
import type { ROLE_REWARD_TRIGGERS } from "#db/schema/community";

/** The words of each rule kind, as the form offers them. */
export const TRIGGER_WORDS = {
  campaign: "Completing a campaign (every task of it approved)",
  crusade: "Finishing a crusade (its last step approved)",
  level: "Reaching a level (all XP earned in this project, as on its leaderboard)",
  pool: "Winning in a reward (paid by one of its campaigns' rewards)",
} as const satisfies Record<(typeof ROLE_REWARD_TRIGGERS)[number], string>;

const id = (words: string) => z.string({ error: words }).trim().min(1, words);

/** A new rule: the role, and what earns it. */
export const roleRewardFormSchema = z.discriminatedUnion(
  "trigger",
  [
    z.object({ roleId: id("Choose a role"), trigger: z.literal("campaign"), campaignId: id("Choose the campaign") }),
    z.object({ roleId: id("Choose a role"), trigger: z.literal("crusade"), crusadeId: id("Choose the crusade") }),
    z.object({
      roleId: id("Choose a role"),
      trigger: z.literal("level"),
      level: z.coerce
        .number({ error: "Enter a level" })
        .int("Enter a whole level")
        .min(2, "Level 1 is every member: choose 2 or more")
        .max(100, "At most level 100"),
    }),
    z.object({ roleId: id("Choose a role"), trigger: z.literal("pool"), poolId: id("Choose the reward") }),
  ],
  { error: "Choose what earns the role" },
);

export type RoleRewardForm = z.output<typeof roleRewardFormSchema>;

/** The form's fields, with only the chosen kind's target. */
export function roleRewardFormValues(formData: FormData) {
  const value = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  return {
    roleId: value("roleId") ?? "",
    trigger: value("trigger"),
    campaignId: value("campaignId"),
    crusadeId: value("crusadeId"),
    poolId: value("poolId"),
    level: value("level"),
  };
}
