import { randomUUID } from "node:crypto";
import { account, user } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import type { SocialProvider } from "~/modules/social/providers";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { encryptToken } from "~/modules/social/token-crypto.server";
import type { FakeAccount, SocialFakes } from "#tests/fakes/social/social-fakes";

/** Every scope each provider's tasks need, as the provider reports them granted. */
const GRANTED: Record<SocialProvider, string> = {
  x: "users.read tweet.read follows.read like.read offline.access",
  youtube: "https://www.googleapis.com/auth/youtube.readonly",
  tiktok: "user.info.basic,video.list",
  instagram: "instagram_business_basic",
};

/**
 * A new member with `who`'s account on `provider` linked as better-auth and the connection flow
 * leave it (as in social-tasks.server.test.ts): tokens issued by the fake and encrypted under the
 * configuration's key, every scope granted, the account's profile active. Returns the member's id.
 */
export async function connectedMember({
  db,
  fakes,
  social,
  provider,
  who,
  now,
  tokenExpiresAt = new Date(now.getTime() + 365 * 86_400_000),
}: {
  db: Db;
  fakes: SocialFakes;
  social: SocialConfig;
  provider: SocialProvider;
  who: FakeAccount;
  now: Date;
  tokenExpiresAt?: Date;
}): Promise<string> {
  const userId = randomUUID();
  await db.insert(user).values({ id: userId, email: `${userId}@example.com`, name: who.name });
  const tokens = fakes.issueToken(provider, who);
  await db.insert(account).values({
    id: randomUUID(),
    userId,
    providerId: provider,
    accountId: who.id,
    scope: GRANTED[provider],
    accessToken: encryptToken(social.tokenKey, tokens.accessToken),
    refreshToken: encryptToken(social.tokenKey, tokens.refreshToken),
    accessTokenExpiresAt: tokenExpiresAt,
    createdAt: now,
    updatedAt: now,
  });
  await db
    .insert(socialAccount)
    .values({ provider, accountId: who.id, handle: who.handle, method: "oauth", status: "active", lastUserId: userId })
    .onConflictDoUpdate({ target: [socialAccount.provider, socialAccount.accountId], set: { method: "oauth", status: "active", lastUserId: userId } });
  return userId;
}
