import { z } from "zod";

/** The Discord bot form: the bot's token (empty keeps the saved one) and the server's id. */
export const discordBotFormSchema = z.object({
  token: z
    .string()
    .trim()
    .max(200, "That is longer than a Discord bot token")
    .refine((v) => v === "" || /^[A-Za-z0-9._-]{50,}$/.test(v), "Paste the bot's token from the Developer Portal (Bot › Reset Token)"),
  guildId: z
    .string()
    .trim()
    .regex(/^\d{17,20}$/, "Paste the server's id: 17 to 20 digits (Server Settings › Widget, or the server's menu › Copy Server ID)"),
});

export type DiscordBotForm = z.output<typeof discordBotFormSchema>;

/** The form's fields as sent, for parsing: the token is never echoed back. */
export function discordBotFormValues(formData: FormData) {
  return { token: String(formData.get("token") ?? ""), guildId: String(formData.get("guildId") ?? "") };
}
