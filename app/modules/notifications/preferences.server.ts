import { eq, sql } from "drizzle-orm";
import { notificationPreference, notificationSetting } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, type KindPreference, type NotificationKind } from "./notification-kinds";

/** `telegram`: the kinds the member chose to get by Telegram (off unless chosen). */
export type NotificationSettings = { kinds: KindPreference[]; digest: boolean; telegram: NotificationKind[] };

/** A member's choice for every kind in both channels (the kind's default where they made none), and the digest switch. */
export async function notificationSettings({ db, userId }: { db: Db; userId: string }): Promise<NotificationSettings> {
  const [rows, [setting]] = await Promise.all([
    db.select().from(notificationPreference).where(eq(notificationPreference.userId, userId)),
    db.select({ digest: notificationSetting.digest }).from(notificationSetting).where(eq(notificationSetting.userId, userId)),
  ]);
  const chosen = new Map(rows.map((row) => [`${row.channel}:${row.kind}`, row.enabled]));
  const kinds = NOTIFICATION_KIND_NAMES.map((kind) => ({
    kind,
    inbox: chosen.get(`inbox:${kind}`) ?? NOTIFICATION_KINDS[kind].defaults.inbox,
    email: chosen.get(`email:${kind}`) ?? NOTIFICATION_KINDS[kind].defaults.email,
  }));
  const telegram = NOTIFICATION_KIND_NAMES.filter((kind) => chosen.get(`telegram:${kind}`) === true);
  return { kinds, digest: setting?.digest ?? false, telegram };
}

/** Saves the whole table (every kind, both channels; Telegram's kinds when given) and the digest switch, in one transaction. */
export async function saveNotificationSettings({
  db,
  userId,
  kinds,
  digest,
  telegram,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  kinds: KindPreference[];
  digest: boolean;
  /** The kinds to get by Telegram; left as they were when not given (the member cannot choose Telegram here). */
  telegram?: NotificationKind[];
  now?: Date;
}) {
  const rows = kinds.flatMap(({ kind, inbox, email }) => [
    { userId, kind, channel: "inbox" as const, enabled: inbox, updatedAt: now },
    { userId, kind, channel: "email" as const, enabled: email, updatedAt: now },
    ...(telegram ? [{ userId, kind, channel: "telegram" as const, enabled: telegram.includes(kind), updatedAt: now }] : []),
  ]);
  await db.transaction(async (tx) => {
    if (rows.length)
      await tx
        .insert(notificationPreference)
        .values(rows)
        .onConflictDoUpdate({
          target: [notificationPreference.userId, notificationPreference.kind, notificationPreference.channel],
          set: { enabled: sql`excluded.enabled`, updatedAt: now },
        });
    await tx
      .insert(notificationSetting)
      .values({ userId, digest, updatedAt: now })
      .onConflictDoUpdate({ target: notificationSetting.userId, set: { digest, updatedAt: now } });
  });
}

/** Turns e-mail off for one kind, or for every kind (`all`): what an unsubscribe link does. */
export async function turnOffEmail({ db, userId, kind, now = new Date() }: { db: Db; userId: string; kind: NotificationKind | "all"; now?: Date }) {
  const kinds = kind === "all" ? NOTIFICATION_KIND_NAMES : [kind];
  await db.transaction(async (tx) => {
    await tx
      .insert(notificationPreference)
      .values(kinds.map((k) => ({ userId, kind: k, channel: "email" as const, enabled: false, updatedAt: now })))
      .onConflictDoUpdate({
        target: [notificationPreference.userId, notificationPreference.kind, notificationPreference.channel],
        set: { enabled: false, updatedAt: now },
      });
    // What was waiting to be mailed of those kinds is not mailed any more (it stays in the inbox).
    const waiting = kind === "all" ? sql`true` : sql`kind = ${kind}`;
    await tx.execute(sql`update notification set mail = 'none' where user_id = ${userId} and mail in ('pending', 'digest') and ${waiting}`);
  });
}

/** Whether e-mail is on for the kind (true for `all` when it is on for any kind). */
export async function emailOn({ db, userId, kind }: { db: Db; userId: string; kind: NotificationKind | "all" }) {
  const { kinds } = await notificationSettings({ db, userId });
  return kinds.some((k) => k.email && (kind === "all" || k.kind === kind));
}
