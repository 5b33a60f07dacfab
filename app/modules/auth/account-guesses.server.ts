import { eq, sql } from "drizzle-orm";
import { rateLimit } from "#db/schema/auth";
import { againAfterFirstInsertRace } from "~/lib/db-errors";
import { rowsOf, type Db } from "~/lib/db.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import { waitWords } from "~/lib/wait-words";

/**
 * Per-account limits on password and code guesses, on top of the per-address ones: whatever
 * address the guesses come from, an account takes a few attempts freely (`FREE_GUESSES`: 5
 * passwords; 10 codes, two codes' worth, since each code already dies after 5 wrong tries), then
 * each further one must wait twice as long as the one before (1 s, 2 s, 4 s … at most 15
 * minutes). A success clears the count, and so does an hour without attempts: an attacker can
 * slow an account down, never lock it.
 */
export const FREE_GUESSES = { password: 5, code: 10 } as const;
const MAX_WAIT_MS = 15 * 60 * 1000;
const QUIET_MS = 60 * 60 * 1000;

export type GuessKind = "password" | "code";
const keyOf = (kind: GuessKind, email: string) => `guess:${kind}:${email.trim().toLowerCase()}`;

/** Wait after `attempts` attempts (0 while the free ones last). */
export function guessWaitMs(kind: GuessKind, attempts: number) {
  const free = FREE_GUESSES[kind];
  return attempts < free ? 0 : Math.min(MAX_WAIT_MS, 1000 * 2 ** (attempts - free));
}

/** Too many guesses for the account (`limited`), with how long to wait. */
export type GuessRefused = CodedFailure & { retryAfterSeconds: number };

/**
 * Takes one attempt for the account, or says how long to wait. Atomic: racing guesses cannot
 * all pass the check before any of them is counted.
 */
export async function takeGuess({ db, kind, email, now = Date.now() }: { db: Db; kind: GuessKind; email: string; now?: number }): Promise<Ok | GuessRefused> {
  const key = keyOf(kind, email);
  const free = FREE_GUESSES[kind];
  const quietSince = now - QUIET_MS;
  const taken = rowsOf(
    await againAfterFirstInsertRace(() =>
      db.execute(sql`
      insert into rate_limit (id, key, count, last_request) values (${key}, ${key}, 1, ${now})
      on conflict (key) do update set
        count = case when rate_limit.last_request <= ${quietSince} then 1 else rate_limit.count + 1 end,
        last_request = ${now}
      where rate_limit.last_request <= ${quietSince}
        or rate_limit.count < ${free}
        or rate_limit.last_request + least(${MAX_WAIT_MS}, 1000 * power(2, rate_limit.count - ${free})) <= ${now}
      returning count`),
    ),
  );
  if (taken.length > 0) return ok();
  const [row] = await db.select().from(rateLimit).where(eq(rateLimit.key, key));
  const waitMs = row ? row.lastRequest + guessWaitMs(kind, row.count) - now : 1000;
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return { ...failure("limited", `Too many attempts for this account. Try again in ${waitWords(seconds)}.`), retryAfterSeconds: seconds };
}

/** A right guess: the account starts afresh. */
export async function clearGuesses({ db, kind, email }: { db: Db; kind: GuessKind; email: string }) {
  await db.delete(rateLimit).where(eq(rateLimit.key, keyOf(kind, email)));
}
