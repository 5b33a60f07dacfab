/** Whether a database error (or one it wraps) is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ("code" in error && error.code === "23505") return true;
  return "cause" in error && isUniqueViolation(error.cause);
}

/**
 * Runs an `insert … on conflict (key) do update` on the `rate_limit` table, once more when it
 * trips a unique constraint. The table's id (better-auth's primary key) holds the key too, and ON
 * CONFLICT covers only the key's index: when two first requests for a key race, the loser trips
 * the primary key instead. By then the winner's row is committed, so the same statement again
 * takes the update path.
 */
export async function againAfterFirstInsertRace<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) return run();
    throw error;
  }
}
