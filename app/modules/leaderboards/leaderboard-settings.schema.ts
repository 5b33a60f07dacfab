import { z } from "zod";

/** Settings › Leaderboard: visibility on public boards and the name shown there. */
export const leaderboardSettingsSchema = z.object({
  visible: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  displayName: z
    .string()
    .trim()
    .max(30, "Use at most 30 characters")
    .refine((v) => v.length === 0 || v.length >= 2, "Use at least 2 characters, or leave it empty to use your profile name")
    .refine((v) => !/\p{C}/u.test(v), "Use letters, digits, spaces and punctuation only")
    .transform((v) => v || null),
});

export type LeaderboardSettings = z.output<typeof leaderboardSettingsSchema>;
