import { z } from "zod";

/** An https link, empty for none; on `host` when given (a text that is no link at all gets the same message). */
const optionalUrl = (host?: RegExp, message = "Enter a full https:// link") =>
  z
    .string()
    .trim()
    .max(300)
    .transform((v) => (v === "" ? null : v))
    .pipe(z.url({ protocol: /^https$/, ...(host ? { hostname: host } : {}), error: message }).nullable());

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Words the pages beside a project or a quest take as their own address (/projects/new, …/campaigns/new). */
const PAGE_ADDRESSES = new Set(["new"]);

/** A project's address, or a quest's within its project. */
export const addressField = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, "The address needs at least 3 characters")
  .max(48, "Keep the address under 48 characters")
  .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens")
  .refine((slug) => !PAGE_ADDRESSES.has(slug), "That address belongs to a page of its own: choose another");

export function slugify(text: string) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

export const projectSchema = z.object({
  name: z.string().trim().min(2, "A project name has at least 2 characters").max(60, "Keep the name under 60 characters"),
  slug: addressField,
  description: z.string().trim().max(2000, "Keep the description under 2000 characters").default(""),
  categoryId: z
    .string()
    .transform((v) => (v === "" ? null : Number(v)))
    .pipe(z.number().int().positive().nullable()),
  website: optionalUrl(),
  xUrl: optionalUrl(/^(www\.)?(x|twitter)\.com$/, "Enter a link to x.com"),
  discordUrl: optionalUrl(/^(www\.)?(discord\.gg|discord\.com)$/, "Enter a discord.gg or discord.com link"),
  telegramUrl: optionalUrl(/^(www\.)?t\.me$/, "Enter a t.me link"),
});
export type ProjectInput = z.output<typeof projectSchema>;

export const inviteSchema = z
  .object({
    target: z.string().trim().min(1, "Enter an e-mail or a wallet address").max(254),
    role: z.enum(["owner", "admin", "reviewer"], { error: "Choose a role" }),
  })
  .transform(({ target, role }, ctx) => {
    if (/^0x[0-9a-fA-F]{40}$/.test(target)) return { role, email: null, walletAddress: target };
    const email = z.email().safeParse(target.toLowerCase());
    if (!email.success) {
      ctx.addIssue({ code: "custom", path: ["target"], message: "Enter an e-mail or a 0x wallet address" });
      return z.NEVER;
    }
    return { role, email: email.data, walletAddress: null };
  });

export const categorySchema = z.object({
  name: z.string().trim().min(2, "At least 2 characters").max(40, "At most 40 characters"),
  description: z.string().trim().max(300).default(""),
});
