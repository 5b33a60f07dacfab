import { z } from "zod";

const email = z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address").max(254, "That e-mail address is too long"));
const redirectTo = z.string().max(2048).optional();

/** `resend` marks a new code asked for from the "check your inbox" step. */
export const sendSchema = z.object({ intent: z.literal("send"), email, redirectTo, resend: z.literal("1").optional() });
export const codeSchema = z.object({
  intent: z.literal("code"),
  email,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail"),
  redirectTo,
});
export const passwordSignInSchema = z.object({
  intent: z.literal("password"),
  email,
  password: z.string().min(1, "Enter your password").max(128, "That password is too long"),
  redirectTo,
});

export const signInSchema = z.discriminatedUnion("intent", [sendSchema, codeSchema, passwordSignInSchema], {
  error: "Choose how to sign in",
});

/** What the sign-in action answers (the /login page's and the sign-in modal's form): the code step, or errors by field. */
export type SignInActionData =
  { step: "code"; email: string; resent?: boolean } | { step: "email" | "code" | "password"; email?: string; errors: Record<string, string> };
