import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { notification } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { isNotificationKind, type NotificationKind } from "./notification-kinds";

export type InboxItem = {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  createdAt: Date;
};

/** A member's inbox, newest first, a page at a time: `before` is the last id of the page before. */
export async function listNotifications({ db, userId, before, limit = 30 }: { db: Db; userId: string; before?: number | null; limit?: number }) {
  const rows = await db
    .select({
      id: notification.id,
      kind: notification.kind,
      title: notification.title,
      body: notification.body,
      link: notification.link,
      readAt: notification.readAt,
      createdAt: notification.createdAt,
    })
    .from(notification)
    .where(and(eq(notification.userId, userId), eq(notification.inInbox, true), before ? lt(notification.id, before) : undefined))
    .orderBy(desc(notification.id))
    .limit(limit + 1);
  const items: InboxItem[] = rows
    .slice(0, limit)
    .flatMap((row) =>
      isNotificationKind(row.kind)
        ? [{ id: row.id, kind: row.kind, title: row.title, body: row.body, link: row.link, read: row.readAt !== null, createdAt: row.createdAt }]
        : [],
    );
  return { items, next: rows.length > limit ? rows[limit - 1]!.id : null };
}

/** The bell's number: unread inbox notifications (the partial index notification_unread_idx holds exactly these). */
export async function unreadCount({ db, userId }: { db: Db; userId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(notification)
    .where(and(eq(notification.userId, userId), isNull(notification.readAt), eq(notification.inInbox, true)));
  return row?.n ?? 0;
}

/** Marks one of the member's own notifications read; returns its link, or null when it is not theirs. */
export async function markRead({ db, userId, id, now = new Date() }: { db: Db; userId: string; id: number; now?: Date }) {
  const [row] = await db
    .update(notification)
    .set({ readAt: sql`coalesce(${notification.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notification.id, id), eq(notification.userId, userId)))
    .returning({ link: notification.link });
  return row ? { link: row.link } : null;
}

/** Marks every unread notification of the member read; returns how many. */
export async function markAllRead({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  const rows = await db
    .update(notification)
    .set({ readAt: now })
    .where(and(eq(notification.userId, userId), isNull(notification.readAt), eq(notification.inInbox, true)))
    .returning({ id: notification.id });
  return rows.length;
}
