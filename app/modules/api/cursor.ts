import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";

/**
 * Cursor paging for /api/v1 lists: rows in the order of a (sort value, id) pair, a page of `limit`
 * (1–100, 50 by default) and an opaque cursor for the next page (base64url of the last row's pair),
 * null on the last page. A row added meanwhile never shifts a page, as an offset would.
 */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

export const pageQuerySchema = z.object({
  limit: z.coerce
    .number("limit must be a whole number from 1 to 100")
    .int("limit must be a whole number from 1 to 100")
    .min(1, "limit must be a whole number from 1 to 100")
    .max(MAX_PAGE_LIMIT, "limit must be a whole number from 1 to 100")
    .default(DEFAULT_PAGE_LIMIT)
    .meta({ description: "How many items a page holds, 1 to 100." }),
  cursor: z
    .string()
    .max(500)
    .refine((value) => decodeCursor(value) !== null, "cursor is not one this API gave")
    .optional()
    .meta({ description: "The `next_cursor` of the previous page; none for the first page." }),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export type CursorSort = string | number;
export type Cursor = { sort: CursorSort; id: string };

/** A page of a list as the API answers it. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
  });

export function encodeCursor({ sort, id }: Cursor): string {
  return Buffer.from(JSON.stringify([sort, id])).toString("base64url");
}

export function decodeCursor(cursor: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [sort, id] = value as unknown[];
    if ((typeof sort !== "string" && typeof sort !== "number") || typeof id !== "string") return null;
    return { sort, id };
  } catch {
    return null;
  }
}

/**
 * A timestamp column's exact value as text, for the cursor: a JavaScript Date keeps milliseconds
 * only, and the database's microseconds would put the page's last row on the next page again.
 */
export const sortText = (column: AnyColumn) => sql<string>`(${column})::text`;

/**
 * The rows after the cursor in ascending (sort, id) order. A timestamp column's sort value is its
 * exact text (`sortText`); `asTimestamp` says so.
 */
export function afterCursor(sortColumn: AnyColumn, idColumn: AnyColumn, cursor: string | undefined, { asTimestamp = true } = {}): SQL | undefined {
  const decoded = cursor === undefined ? null : decodeCursor(cursor);
  if (!decoded) return undefined;
  const sort = asTimestamp ? sql`${String(decoded.sort)}::timestamptz` : sql`${decoded.sort}`;
  return sql`(${sortColumn}, ${idColumn}) > (${sort}, ${decoded.id})`;
}

/**
 * The page from `limit + 1` rows read in order: the first `limit`, and a cursor when there was
 * one more.
 */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Cursor) {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
