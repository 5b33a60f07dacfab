/**
 * What of an error may reach the log. A failed database query carries its SQL and parameters
 * (members' input, tokens, e-mail addresses): only the database's own code and message are kept,
 * with any quoted value in that message blanked (PostgreSQL quotes the input it refused).
 */
export function loggableError(error: unknown): unknown {
  if (!(error instanceof Error) || !("params" in error) || !("query" in error)) return error;
  const cause = error.cause instanceof Error ? error.cause : null;
  const code = cause && "code" in cause ? String(cause.code) : undefined;
  const safe = new Error(`Database query failed${code ? ` (${code})` : ""}: ${(cause?.message ?? "unknown cause").replace(/"[^"]*"/g, '"…"')}`);
  safe.name = "DatabaseError";
  const frames = (error.stack ?? "").split("\n").filter((line) => line.trimStart().startsWith("at "));
  safe.stack = [`${safe.name}: ${safe.message}`, ...frames].join("\n");
  return safe;
}

/** A log message cut before the parameters of a failed statement it quotes (Drizzle's "Failed query: …\nparams: …"). */
export function withoutParameters(message: string): string {
  const at = message.indexOf("\nparams:");
  return at === -1 ? message : message.slice(0, at);
}
