import { z } from "zod";

export const RESERVED_USERNAMES = new Set(["admin", "api", "settings", "login", "logout", "dashboard", "menu", "questline", "support"]);

export const profileSchema = z.object({
  name: z.string().trim().min(1, "Enter a display name").max(50, "Keep the display name under 50 characters"),
  username: z
    .string()
    .trim()
    .toLowerCase()
    .min(3, "A username has at least 3 characters")
    .max(30, "A username has at most 30 characters")
    .regex(/^[a-z0-9_]+$/, "Use only letters, digits and underscores")
    .refine((name) => !RESERVED_USERNAMES.has(name), "That username is reserved"),
});

export const emailChangeSchema = z.object({
  newEmail: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address").max(254)),
});

export const emailChangeCodeSchema = z.object({
  newEmail: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address")),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail"),
});

export const passwordSchema = z
  .object({
    currentPassword: z.string().max(128).optional(),
    newPassword: z.string().min(8, "Use at least 8 characters").max(128, "Use at most 128 characters"),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "The passwords do not match" });
