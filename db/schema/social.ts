import { integer, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { SOCIAL_ACCOUNT_STATUSES, SOCIAL_PROVIDERS } from "../../app/modules/social/providers.ts";

/**
 * Every social account Questline has seen, linked now or not: its public profile, whether its
 * token still works, how it was proven (OAuth or a code posted from it), and who held it last.
 * The link itself (and the encrypted tokens) is better-auth's `account` row; this row outlives
 * it, so an account unlinked from one member waits before another member may link it.
 */
export const socialAccount = pgTable(
  "social_account",
  {
    provider: text("provider", { enum: SOCIAL_PROVIDERS }).notNull(),
    /** The provider's id for the account (X user id, YouTube channel id, TikTok open_id, Instagram user id). */
    accountId: text("account_id").notNull(),
    handle: text("handle").notNull().default(""),
    displayName: text("display_name").notNull().default(""),
    avatarUrl: text("avatar_url"),
    /** `oauth` when connected through the provider, `code` when proven by a post carrying a code, `widget` by Telegram's Login Widget. */
    method: text("method", { enum: ["oauth", "code", "widget"] })
      .notNull()
      .default("oauth"),
    status: text("status", { enum: SOCIAL_ACCOUNT_STATUSES }).notNull().default("active"),
    /** Why the status is what it is, in words for the member (null while active). */
    statusReason: text("status_reason"),
    /** When the token last worked (a refresh or an API answer). */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /** The member it was last linked to, and when they unlinked it (null while linked). */
    lastUserId: text("last_user_id").references(() => user.id, { onDelete: "set null" }),
    unlinkedAt: timestamp("unlinked_at", { withTimezone: true }),
    /** When the provider says the account was created, and its followers or subscribers, where the provider gives them. */
    accountCreatedAt: timestamp("account_created_at", { withTimezone: true }),
    followers: integer("followers"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.accountId] }), index("social_account_last_user_idx").on(t.lastUserId)],
);

/** The code a member posts from their X account to prove it is theirs (Tasks › Verify X account). */
export const xVerificationCode = pgTable("x_verification_code", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  code: text("code").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
