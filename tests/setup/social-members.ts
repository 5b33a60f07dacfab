import { randomUUID } from "node:crypto";
import { account, user } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import type { FakeProvider } from "#tests/fakes/social/endpoints";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { encryptToken } from "~/lib/secret-box.server";
import type { FakeAccount, SocialFakes } from "#tests/fakes/social/social-fakes";

/** Every scope each provider's tasks need, as the provider reports them granted. */
const GRANTED: Record<FakeProvider, string> = {
  x: "users.read tweet.read follows.read like.read offline.access",
  youtube: "https://www.googleapis.com/auth/youtube.readonly",
  tiktok: "user.info.basic,video.list",
  instagram: "instagram_business_basic",
  discord: "identify guilds guilds.members.read",
};

/**
 * A new member with `who`'s account on `provider` linked as better-auth and the connection flow
 * leave it: tokens issued by the fake and encrypted under the configuration's key, every scope
 * granted (or `scope`), the account's profile active (or `status`); a `code` account has no
 * tokens, as one proven by a posted code. Returns the member's id.
 */
export async function connectedMember({
  db,
  fakes,
  social,
  provider,
  who,
  now,
  tokenExpiresAt = new Date(now.getTime() + 365 * 86_400_000),
  scope,
  status = "active",
  method = "oauth",
}: {
  db: Db;
  fakes: SocialFakes;
  social: SocialConfig;
  provider: FakeProvider;
  who: FakeAccount;
  now: Date;
  tokenExpiresAt?: Date;
  scope?: string;
  status?: "active" | "needs_reconnect";
  method?: "oauth" | "code";
}): Promise<string> {
  const userId = randomUUID();
  await db.insert(user).values({ id: userId, email: `${userId}@example.com`, name: who.name });
  const tokens = fakes.issueToken(provider, who, scope === undefined ? {} : { scope });
  const oauth = method === "oauth";
  await db.insert(account).values({
    id: randomUUID(),
    userId,
    providerId: provider,
    accountId: who.id,
    scope: oauth ? (scope ?? GRANTED[provider]) : null,
    accessToken: oauth ? encryptToken(social.tokenKey, tokens.accessToken) : null,
    refreshToken: oauth ? encryptToken(social.tokenKey, tokens.refreshToken) : null,
    accessTokenExpiresAt: tokenExpiresAt,
    createdAt: now,
    updatedAt: now,
  });
  await db
    .insert(socialAccount)
    .values({ provider, accountId: who.id, handle: who.handle, method, status, lastUserId: userId })
    .onConflictDoUpdate({ target: [socialAccount.provider, socialAccount.accountId], set: { method, status, lastUserId: userId } });
  return userId;
}
