import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";

/** Labels projects are browsed by; managed by operators. */
export const category = pgTable("category", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const project = pgTable(
  "project",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    logoUrl: text("logo_url"),
    bannerUrl: text("banner_url"),
    categoryId: integer("category_id").references(() => category.id, { onDelete: "set null" }),
    website: text("website"),
    xUrl: text("x_url"),
    discordUrl: text("discord_url"),
    telegramUrl: text("telegram_url"),
    /**
     * Never read nor written (from the first schema): superseded by `rewardAsset`. Kept until a
     * migration drops them, so that a process still on the older code can share the database.
     */
    tokenChainId: integer("token_chain_id"),
    tokenAddress: text("token_address"),
    /**
     * The asset its rewards are paid in, `SYMBOL:chainId` (app/modules/ledger/assets.ts), one the
     * deployment's vaults pay (set-reward-asset.server.ts); null: none chosen.
     */
    rewardAsset: text("reward_asset").$type<`${string}:${number}`>(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("project_slug_key").on(t.slug), index("project_category_idx").on(t.categoryId, t.createdAt)],
);

/** A project's team: `owner`, `admin` or `reviewer`. */
export const projectMember = pgTable(
  "project_member",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "reviewer"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("project_member_user_idx").on(t.userId)],
);

/** An invitation to a project's team, by e-mail or by wallet address; valid for 7 days. */
export const projectInvite = pgTable(
  "project_invite",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    email: text("email"),
    walletAddress: text("wallet_address"),
    role: text("role", { enum: ["owner", "admin", "reviewer"] }).notNull(),
    /** SHA-256 of the token in the invite link; the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: text("accepted_by").references(() => user.id, { onDelete: "set null" }),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("project_invite_project_idx").on(t.projectId, t.createdAt)],
);

/**
 * A member's e-mail address shared with one project's team, by the member's own choice (and taken
 * back by deleting the row). Without it the team sees the member's name, wallets and social handles only.
 */
export const projectEmailShare = pgTable(
  "project_email_share",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("project_email_share_user_idx").on(t.userId)],
);
