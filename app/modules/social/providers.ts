/**
 * The social networks a member can connect, named so components and the database share them.
 * Nothing here reaches a server or a secret: the browser may import it.
 */
export const SOCIAL_PROVIDERS = ["x", "youtube", "tiktok", "instagram", "discord", "telegram"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/**
 * The providers connected through OAuth 2 (better-auth's generic OAuth). Telegram has no OAuth: a
 * member proves their account with the Login Widget's signed data (`telegram-login.server.ts`).
 */
export const OAUTH_PROVIDERS = ["x", "youtube", "tiktok", "instagram", "discord"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export const isOAuthProvider = (value: string): value is OAuthProvider => (OAUTH_PROVIDERS as readonly string[]).includes(value);

export const isSocialProvider = (value: string): value is SocialProvider => (SOCIAL_PROVIDERS as readonly string[]).includes(value);

export const PROVIDER_LABELS: Record<SocialProvider, string> = {
  x: "X",
  youtube: "YouTube",
  tiktok: "TikTok",
  instagram: "Instagram",
  discord: "Discord",
  telegram: "Telegram",
};

/** The scopes asked for when connecting: what the social tasks need, nothing more. */
export const PROVIDER_SCOPES: Record<SocialProvider, readonly string[]> = {
  x: ["users.read", "tweet.read", "follows.read", "like.read", "offline.access"],
  youtube: ["https://www.googleapis.com/auth/youtube.readonly"],
  // `username` is a user.info.profile field; user.info.basic gives only open_id, avatar and display name.
  tiktok: ["user.info.basic", "user.info.profile", "video.list"],
  instagram: ["instagram_business_basic"],
  // Who the member is, which servers they are in, and their roles in one (the Discord tasks' check).
  discord: ["identify", "guilds", "guilds.members.read"],
  // The Login Widget grants no scopes: it proves the account, and the project's bot reads the group.
  telegram: [],
};

/** How a completion was checked: through a provider's API, by a code posted from the account, by the team, by Questline itself (quiz, chain, referrals), or not at all. */
/** `project`: the project's own server said the member did it (an api_check task, asked by us or pushed through the public API). */
export const VERIFIED_BY = ["api", "code", "review", "auto", "none", "project"] as const;
export type VerifiedBy = (typeof VERIFIED_BY)[number];

/** A social account's token: working, or refused by the provider until the member connects again. */
export const SOCIAL_ACCOUNT_STATUSES = ["active", "needs_reconnect"] as const;
export type SocialAccountStatus = (typeof SOCIAL_ACCOUNT_STATUSES)[number];

/** How long a social account unlinked from one member waits before another member may link it. */
export const RELINK_WAIT_DAYS = 30;

/** What a connection lets Questline read, in the member's words. */
export const PROVIDER_READS: Record<SocialProvider, string> = {
  x: "your profile, your recent posts, who you follow and the posts you like",
  youtube: "your channel's name and your subscriptions",
  tiktok: "your profile and your recent videos' descriptions",
  instagram: "your professional account's profile and your recent posts' captions",
  discord: "your username, the servers you are in and your roles in them",
  telegram: "your name, username and picture; projects' bots read whether you are in their groups",
};

/** Hosts the providers serve profile pictures from: the only outside images a page may show (server/http.ts's CSP). */
export const AVATAR_HOSTS = [
  "https://pbs.twimg.com",
  "https://yt3.ggpht.com",
  "https://*.tiktokcdn.com",
  "https://*.tiktokcdn-us.com",
  "https://*.cdninstagram.com",
  "https://*.fbcdn.net",
  "https://cdn.discordapp.com",
  "https://t.me",
] as const;

/** A provider's profile picture, if it comes from one of `AVATAR_HOSTS` over https (else the page shows initials). */
export function allowedAvatar(url: string | null): string | null {
  if (!url) return null;
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol !== "https:") return null;
    const allowed = AVATAR_HOSTS.some((host) => {
      const name = host.replace("https://", "");
      return name.startsWith("*.") ? hostname.endsWith(name.slice(1)) : hostname === name;
    });
    return allowed ? url : null;
  } catch {
    return null;
  }
}
