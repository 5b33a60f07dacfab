import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { project } from "./projects.ts";

/**
 * The outbox of what happened (app/modules/events): written in the transaction that made it
 * happen, once per `key`; read by the notifications job (`notified_at`) and the webhook job
 * (`webhooked_at`), each marking the rows it has turned into its own. A consumer with nothing to
 * do for a type finds it marked at insert.
 */
export const appEvent = pgTable(
  "app_event",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    type: text("type").notNull(),
    projectId: text("project_id").references(() => project.id, { onDelete: "cascade" }),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    webhookedAt: timestamp("webhooked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("app_event_key").on(t.key),
    index("app_event_to_notify_idx")
      .on(t.id)
      .where(sql`${t.notifiedAt} is null`),
    index("app_event_to_webhook_idx")
      .on(t.id)
      .where(sql`${t.webhookedAt} is null`),
    index("app_event_created_idx").on(t.createdAt),
  ],
);

/** A member's notification: one per member and event (`dedupe`), in the inbox and, by their choice, by mail. */
export const notification = pgTable(
  "notification",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** What it is about, one of the member's preference kinds (app/modules/notifications). */
    kind: text("kind").notNull(),
    /** Makes it once: the event's key (and the member). */
    dedupe: text("dedupe").notNull(),
    projectId: text("project_id").references(() => project.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** Where it leads, a path in the app. */
    link: text("link"),
    /** Shown in the inbox (the member's choice for this kind when it was made). */
    inInbox: boolean("in_inbox").notNull().default(true),
    readAt: timestamp("read_at", { withTimezone: true }),
    /** `pending` (to mail), `sent`, `digest` (waiting for the day's digest), `digested`, `none` (not mailed), `failed`. */
    mail: text("mail", { enum: ["pending", "sent", "digest", "digested", "none", "failed"] })
      .notNull()
      .default("none"),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    mailAttempts: integer("mail_attempts").notNull().default(0),
    /** By Telegram, the member's choice: `pending` (to send), `sent`, `none` (not sent that way), `failed`. Sent at most once, as mail is. */
    telegram: text("telegram", { enum: ["pending", "sent", "none", "failed"] })
      .notNull()
      .default("none"),
    telegramSentAt: timestamp("telegram_sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notification_dedupe_key").on(t.userId, t.dedupe),
    index("notification_user_idx").on(t.userId, t.id),
    index("notification_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null and ${t.inInbox}`),
    index("notification_mail_idx")
      .on(t.mail, t.id)
      .where(sql`${t.mail} in ('pending', 'digest')`),
    index("notification_telegram_idx")
      .on(t.id)
      .where(sql`${t.telegram} = 'pending'`),
  ],
);

/** A member's choice for one kind on one channel (`inbox`, `email`, `telegram`); no row: the kind's default. */
export const notificationPreference = pgTable(
  "notification_preference",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    channel: text("channel", { enum: ["inbox", "email", "telegram"] }).notNull(),
    enabled: boolean("enabled").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.channel] })],
);

/** A member's mail settings: a daily digest instead of single mails, and when they last got one. */
export const notificationSetting = pgTable("notification_setting", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  digest: boolean("digest").notNull().default(false),
  lastDigestAt: timestamp("last_digest_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A member following a project: told of its new campaigns. */
export const projectFollow = pgTable(
  "project_follow",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index("project_follow_project_idx").on(t.projectId)],
);

/** A project's API key: shown once, kept as its SHA-256, with scopes; revoked, not deleted. */
export const apiKey = pgTable(
  "api_key",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The key's first characters, to tell keys apart (`ql_…`). */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. */
    hash: text("hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("api_key_hash_key").on(t.hash), index("api_key_project_idx").on(t.projectId, t.createdAt)],
);

/** A write's first answer, by key and `Idempotency-Key`: the same key again answers it. */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKey.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: jsonb("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] }), index("api_idempotency_created_idx").on(t.createdAt)],
);

/**
 * The secret a project's server checks our signed requests with (api_check tasks), encrypted at
 * rest (lib/secret-box.server.ts). One per project.
 */
export const projectSigningSecret = pgTable("project_signing_secret", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => project.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A project's webhook endpoint: a URL, the event types it chose, its signing secret (encrypted; the previous one kept during a rotation's overlap). */
export const webhookEndpoint = pgTable(
  "webhook_endpoint",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: jsonb("event_types").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    /** Since when every delivery has failed (null: the last one worked). */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoint_project_idx").on(t.projectId)],
);

/** One message to one endpoint: its `id` is the `webhook-id` every attempt sends; `body` is signed as stored. */
export const webhookDelivery = pgTable(
  "webhook_delivery",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: "cascade" }),
    /** The event it carries; null for a test event. */
    eventId: bigint("event_id", { mode: "number" }),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    state: text("state", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_delivery_event_key").on(t.endpointId, t.eventId),
    index("webhook_delivery_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index("webhook_delivery_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt at a delivery, as it went: the endpoint's delivery log. */
export const webhookAttempt = pgTable(
  "webhook_attempt",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDelivery.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer("duration_ms").notNull(),
    /** The HTTP status, or null when no answer came (then `error` says why). */
    status: integer("status"),
    /** The answer's first 1,000 characters. */
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [index("webhook_attempt_endpoint_idx").on(t.endpointId, t.attemptedAt), index("webhook_attempt_delivery_idx").on(t.deliveryId)],
);
