/**
 * The `ilike` pattern that finds `text` anywhere in a column, with the wildcards a member typed
 * taken as themselves ("50%" finds "50%", not "50 anything"). PostgreSQL's default escape is `\`.
 */
export function containsPattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
