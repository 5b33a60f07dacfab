import type { Services } from "~/services/services.server";
import { signInMail } from "~/modules/mail/templates.server";
import { clearGuesses, takeGuess, type GuessKind } from "./account-guesses.server";
import { failure, invalid, ok, type Failure, type Result } from "~/lib/result";
import { callAuth, describeAuthError, type AuthCallResult } from "./auth-call.server";
import { composeSignInEmail, type SignInDraft } from "./auth.server";
import { claimEmailCooldown, normalizeEmail, releaseEmailCooldown } from "./email-cooldown.server";

type Deps = Pick<Services, "auth" | "env" | "mailer" | "database" | "logger">;
/** Signed in (with the session cookies to send), or refused: `limited`, or the code or password refused. */
export type SignInResult = Result<{ headers: Headers }>;

/** A refused auth call in the member's words: too many attempts is `limited`, anything else refuses `field`. */
function authFailure(result: Extract<AuthCallResult, { ok: false }>, field: string): Failure {
  const message = describeAuthError(result);
  return result.status === 429 ? failure("limited", message) : invalid(field, message);
}

/**
 * Sends one e-mail holding both a magic link and a 6-digit code. An address gets at most one such
 * e-mail every 30 seconds, whichever path asks (this one or better-auth's own endpoints).
 */
export async function sendSignInEmail(deps: Deps, { request, email, redirectTo }: { request: Request; email: string; redirectTo: string }): Promise<Result> {
  const address = normalizeEmail(email);
  const db = deps.database.db;
  const claim = await claimEmailCooldown({ db, email: address });
  if (!claim.ok) return failure("limited", `Please try again after ${claim.retryAfterSeconds} seconds`, claim.retryAfterSeconds);

  const draft: SignInDraft = {};
  const refused = await composeSignInEmail(draft, async () => {
    const link = await callAuth(deps, request, "/sign-in/magic-link", {
      email: address,
      callbackURL: redirectTo,
      errorCallbackURL: "/login?error=link",
    });
    if (!link.ok) return link;
    const code = await callAuth(deps, request, "/email-otp/send-verification-otp", { email: address, type: "sign-in" });
    return code.ok ? null : code;
  });
  if (refused) {
    await releaseEmailCooldown({ db, email: address });
    return authFailure(refused, "email");
  }
  try {
    await deps.mailer.send(signInMail({ appName: deps.env.APP_NAME, to: address, url: draft.url, code: draft.code }));
  } catch (error) {
    deps.logger.error({ err: error, to: address }, "sign-in e-mail could not be sent");
    await releaseEmailCooldown({ db, email: address });
    return failure("unavailable", "We could not send the e-mail just now. Please try again in a moment.");
  }
  return ok();
}

/**
 * Signs in with an e-mailed code or a password, within the per-account guess limits
 * (account-guesses.server.ts) as well as better-auth's per-address ones.
 */
async function guessed(
  deps: Pick<Services, "auth" | "env" | "database" | "logger">,
  { request, email, kind, path, body }: { request: Request; email: string; kind: GuessKind; path: string; body: Record<string, string> },
): Promise<SignInResult> {
  const db = deps.database.db;
  const turn = await takeGuess({ db, kind, email });
  if (!turn.ok) return turn;
  const result = await callAuth(deps, request, path, body);
  // A wrong guess refuses the field it came from: `code` or `password`.
  if (!result.ok) return authFailure(result, kind);
  await clearGuesses({ db, kind, email });
  return ok({ headers: result.headers });
}

export async function signInWithCode(
  deps: Pick<Services, "auth" | "env" | "database" | "logger">,
  { request, email, code }: { request: Request; email: string; code: string },
) {
  const address = normalizeEmail(email);
  return guessed(deps, { request, email: address, kind: "code", path: "/sign-in/email-otp", body: { email: address, otp: code } });
}

export async function signInWithPassword(
  deps: Pick<Services, "auth" | "env" | "database" | "logger">,
  { request, email, password }: { request: Request; email: string; password: string },
) {
  const address = normalizeEmail(email);
  return guessed(deps, { request, email: address, kind: "password", path: "/sign-in/email", body: { email: address, password } });
}

export async function signOut(deps: Pick<Services, "auth" | "env" | "logger">, request: Request): Promise<Headers> {
  const result = await callAuth(deps, request, "/sign-out", {});
  return result.ok ? result.headers : new Headers();
}
