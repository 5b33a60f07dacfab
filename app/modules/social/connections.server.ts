import { and, eq } from "drizzle-orm";
import { account } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import { failure, ok, type Result } from "~/lib/result";
import { scopesOf } from "./access.server";
import { PROVIDER_LABELS, PROVIDER_SCOPES, RELINK_WAIT_DAYS, SOCIAL_PROVIDERS, type SocialAccountStatus, type SocialProvider } from "./providers";
import { isConnectable, type SocialConfig } from "./social-config.server";
import { LINK_ERRORS } from "./social-oauth.server";

/** One provider on the member's Connections pages. Never carries a token. */
export type Connection = {
  provider: SocialProvider;
  label: string;
  /** False: the server has no client for this provider, so nothing can connect. */
  configured: boolean;
  account: {
    accountId: string;
    handle: string;
    displayName: string;
    avatarUrl: string | null;
    connectedAt: Date;
    method: "oauth" | "code" | "widget";
    status: SocialAccountStatus;
    statusReason: string | null;
    /** When the token last worked (connected, renewed or used). */
    checkedAt: Date | null;
    /** Scopes the social tasks need that the member did not grant. */
    missingScopes: string[];
  } | null;
};

/** The member's connections, one per provider, in the providers' order. */
export async function listConnections({ db, social, userId }: { db: Db; social: SocialConfig; userId: string }): Promise<Connection[]> {
  const rows = await db
    .select({ account, profile: socialAccount })
    .from(account)
    .leftJoin(socialAccount, and(eq(socialAccount.provider, account.providerId), eq(socialAccount.accountId, account.accountId)))
    .where(eq(account.userId, userId));
  return SOCIAL_PROVIDERS.map((provider) => {
    const row = rows.find((r) => r.account.providerId === provider);
    const method = row?.profile?.method ?? "oauth";
    const granted = scopesOf(row?.account.scope ?? null);
    return {
      provider,
      label: PROVIDER_LABELS[provider],
      configured: isConnectable(social, provider),
      account: row
        ? {
            accountId: row.account.accountId,
            handle: row.profile?.handle ?? "",
            displayName: row.profile?.displayName ?? "",
            avatarUrl: row.profile?.avatarUrl ?? null,
            connectedAt: row.account.createdAt,
            method,
            status: row.profile?.status ?? "active",
            statusReason: row.profile?.statusReason ?? null,
            checkedAt: row.profile?.checkedAt ?? null,
            missingScopes: method !== "oauth" ? [] : PROVIDER_SCOPES[provider].filter((scope) => !granted.includes(scope)),
          }
        : null,
    };
  });
}

/**
 * Unlinks the member's account on `provider`: the link and its tokens are deleted; the account
 * remembers who held it and when, so another member may link it only after 30 days.
 */
export async function disconnect({
  db,
  userId,
  provider,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  provider: SocialProvider;
  now?: Date;
}): Promise<Result<{ handle: string }>> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, provider)))
      .returning({ accountId: account.accountId });
    if (!removed) return failure("not_found", `No ${PROVIDER_LABELS[provider]} account is connected.`);
    const [profile] = await tx
      .update(socialAccount)
      .set({ lastUserId: userId, unlinkedAt: now, updatedAt: now })
      .where(and(eq(socialAccount.provider, provider), eq(socialAccount.accountId, removed.accountId)))
      .returning({ handle: socialAccount.handle });
    return ok({ handle: profile?.handle ?? "" });
  });
}

/** Settings › Connections: where a connection that cannot tell which provider it was for comes back to. */
export const CONNECTIONS_PAGE = "/settings/connections";

/** A connection that came back with a state nobody started, or one already used or expired. */
const STALE_STATE = new Set(["please_restart_the_process", "state_mismatch", "invalid_state", "state_invalid", "state_not_found", "state_security_mismatch"]);

/**
 * A connection that failed before anyone could tell its provider (its state was unknown, expired or
 * used already), from the code it came back with, in words.
 */
export function connectionErrorMessage(code: string): string {
  if (STALE_STATE.has(code))
    return "That connection could not be finished: it took too long, was already used, or was started in another tab. Nothing changed: connect again.";
  return `The connection could not be finished (${code.slice(0, 60)}). Nothing changed: connect again.`;
}

/** A refused or failed connection, from the code the provider's redirect came back with, in words. */
export function linkErrorMessage(provider: SocialProvider, code: string): string {
  const label = PROVIDER_LABELS[provider];
  switch (code) {
    case "account_already_linked_to_different_user":
      return `This ${label} account is already connected to another member. One account belongs to one member.`;
    case LINK_ERRORS.relinkWait:
      return `This ${label} account was disconnected from another member less than ${RELINK_WAIT_DAYS} days ago. It can be connected to a new member once ${RELINK_WAIT_DAYS} days have passed.`;
    case LINK_ERRORS.onePerProvider:
      return `You already have a ${label} account connected. Disconnect it first to connect another.`;
    case LINK_ERRORS.instagramPersonal:
      return "This is a personal Instagram account. Instagram lets only professional accounts (business or creator) connect: switch it to a professional account in Instagram's settings, then connect again.";
    case LINK_ERRORS.youtubeNoChannel:
      return "This Google account has no YouTube channel, so it has no subscriptions to check. Create a channel on YouTube (it is free), then connect again.";
    case "access_denied":
      return `You did not allow the connection on ${label}. Nothing changed.`;
    case LINK_ERRORS.profileUnavailable:
    case "unable_to_get_user_info":
      return `${label} did not tell us which account you signed in with. Nothing changed: try again in a minute.`;
    default:
      if (STALE_STATE.has(code)) return connectionErrorMessage(code);
      return `${label} could not be connected (${code.slice(0, 60)}). Nothing changed: try again.`;
  }
}
