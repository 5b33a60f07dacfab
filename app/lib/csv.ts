/** One CSV cell: dates as ISO, objects as JSON; quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: unknown): string {
  const text = value instanceof Date ? value.toISOString() : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value ?? "");
  // Cells that a spreadsheet would run as a formula are quoted as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
