import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { keptSecret } from "~/lib/kept-secret.server";
import { OAUTH_PROVIDERS, isOAuthProvider, type OAuthProvider, type SocialProvider } from "./providers";

/** Where one provider's OAuth server and REST API live, and our client's credentials there. Secrets never leave the server. */
/** The profile of a connecting account is read through the REST API (`apiUrl`), as every check is. */
export type ProviderConfig = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
};

/**
 * The platform's own Telegram bot: the Login Widget is bound to it (its token's hash keys the
 * widget's signature) and it sends members their notifications when they start it.
 */
export type TelegramConfig = {
  botToken: string;
  /** Without the @, as the Login Widget and t.me links name it. */
  botUsername: string;
  /** The numeric id the token starts with: the Login Widget's `bot_id`. */
  botId: string;
};

export type SocialConfig = {
  /** The AES-256-GCM key that encrypts social tokens and projects' bot tokens at rest (32 bytes). */
  tokenKey: Buffer;
  /** The providers with a client id and secret: the only ones members can connect through OAuth. */
  providers: Partial<Record<OAuthProvider, ProviderConfig>>;
  /** The providers members can connect here: the configured OAuth clients, and Telegram with the platform's bot. */
  connectable: Partial<Record<SocialProvider, true>>;
  /** Connecting Telegram and notifications by Telegram: offered only with the platform's bot. */
  telegram: TelegramConfig | null;
  /** Discord's REST API (v10): members' checks and projects' bots (`DISCORD_API_URL`). */
  discordApiUrl: string;
  /** Telegram's Bot API (`TELEGRAM_API_URL`): projects' bots and the platform's. */
  telegramApiUrl: string;
  /** Telegram's login page the Connect button opens (`TELEGRAM_OAUTH_URL`). */
  telegramOAuthUrl: string;
  /** X's app-only token: reads a public post when a member proves their X account by a posted code. */
  xBearerToken: string | null;
};

/** The providers' real endpoints; each can be pointed elsewhere (`X_TOKEN_URL`, …) by self-hosters and the tests. */
export const PROVIDER_DEFAULTS: Record<OAuthProvider, Omit<ProviderConfig, "clientId" | "clientSecret">> = {
  x: {
    authorizeUrl: "https://x.com/i/oauth2/authorize",
    tokenUrl: "https://api.x.com/2/oauth2/token",
    apiUrl: "https://api.x.com",
  },
  youtube: {
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    apiUrl: "https://www.googleapis.com/youtube/v3",
  },
  tiktok: {
    authorizeUrl: "https://www.tiktok.com/v2/auth/authorize/",
    tokenUrl: "https://open.tiktokapis.com/v2/oauth/token/",
    apiUrl: "https://open.tiktokapis.com",
  },
  instagram: {
    authorizeUrl: "https://www.instagram.com/oauth/authorize",
    tokenUrl: "https://api.instagram.com/oauth/access_token",
    apiUrl: "https://graph.instagram.com",
  },
  discord: {
    authorizeUrl: "https://discord.com/oauth2/authorize",
    tokenUrl: "https://discord.com/api/oauth2/token",
    apiUrl: "https://discord.com/api/v10",
  },
};

export const TELEGRAM_DEFAULTS = { apiUrl: "https://api.telegram.org", oauthUrl: "https://oauth.telegram.org" } as const;

/** The environment variable prefix of each provider: `X_CLIENT_ID`, `YOUTUBE_TOKEN_URL`, … */
export const PROVIDER_ENV_PREFIX: Record<OAuthProvider, string> = { x: "X", youtube: "YOUTUBE", tiktok: "TIKTOK", instagram: "INSTAGRAM", discord: "DISCORD" };

/** A Telegram bot token as @BotFather gives it: the bot's id, a colon, 35 characters. */
export const TELEGRAM_BOT_TOKEN = /^(\d{1,20}):[A-Za-z0-9_-]{30,}$/;

const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
/** 32 bytes, as 64 hex digits or base64. */
const key = z
  .string()
  .trim()
  .transform((value) => (/^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64")))
  .refine((bytes) => bytes.length === 32, "must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -hex 32)");

export class SocialConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads the social providers' configuration. A provider is offered only with both its client id
 * and secret; one without the other, or a malformed URL or key, stops the start with one line.
 * Served publicly with a provider configured, SOCIAL_TOKEN_KEY is required; otherwise a key is
 * generated once and kept in the data folder.
 */
export function socialConfigFromEnv(source: Record<string, string | undefined>, { isPublic, dataDir }: { isPublic: boolean; dataDir: string }): SocialConfig {
  const read = (name: string) => {
    const value = source[name]?.trim();
    return value ? value : undefined;
  };
  const providers: SocialConfig["providers"] = {};
  for (const provider of OAUTH_PROVIDERS) {
    const prefix = PROVIDER_ENV_PREFIX[provider];
    const clientId = read(`${prefix}_CLIENT_ID`);
    const clientSecret = read(`${prefix}_CLIENT_SECRET`);
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      const missing = clientId ? `${prefix}_CLIENT_SECRET` : `${prefix}_CLIENT_ID`;
      throw new SocialConfigError(`Invalid configuration: ${missing} is required with ${clientId ? `${prefix}_CLIENT_ID` : `${prefix}_CLIENT_SECRET`}`);
    }
    const defaults = PROVIDER_DEFAULTS[provider];
    const endpoint = (suffix: string, fallback: string) => {
      const name = `${prefix}_${suffix}`;
      const parsed = url.safeParse(read(name) ?? fallback);
      if (!parsed.success) throw new SocialConfigError(`Invalid configuration: ${name} ${parsed.error.issues[0]!.message}`);
      return parsed.data.replace(/\/$/, "");
    };
    providers[provider] = {
      clientId,
      clientSecret,
      authorizeUrl: endpoint("AUTHORIZE_URL", defaults.authorizeUrl),
      tokenUrl: endpoint("TOKEN_URL", defaults.tokenUrl),
      apiUrl: endpoint("API_URL", defaults.apiUrl),
    };
  }

  const apiUrl = (name: string, fallback: string) => {
    const parsed = url.safeParse(read(name) ?? fallback);
    if (!parsed.success) throw new SocialConfigError(`Invalid configuration: ${name} ${parsed.error.issues[0]!.message}`);
    return parsed.data.replace(/\/$/, "");
  };
  const telegram = telegramConfig(read);
  const configured = Object.keys(providers).length > 0 || telegram !== null;
  const given = read("SOCIAL_TOKEN_KEY");
  let tokenKey: Buffer;
  if (given) {
    const parsed = key.safeParse(given);
    if (!parsed.success) throw new SocialConfigError(`Invalid configuration: SOCIAL_TOKEN_KEY ${parsed.error.issues[0]!.message}`);
    tokenKey = parsed.data;
  } else if (isPublic && configured) {
    throw new SocialConfigError(
      "Invalid configuration: SOCIAL_TOKEN_KEY is required in production when a social provider is configured (openssl rand -hex 32)",
    );
  } else {
    tokenKey = localTokenKey(dataDir);
  }
  const connectable: SocialConfig["connectable"] = Object.fromEntries([...Object.keys(providers), ...(telegram ? ["telegram"] : [])].map((p) => [p, true]));
  return {
    tokenKey,
    providers,
    connectable,
    telegram,
    discordApiUrl: apiUrl("DISCORD_API_URL", providers.discord?.apiUrl ?? PROVIDER_DEFAULTS.discord.apiUrl),
    telegramApiUrl: apiUrl("TELEGRAM_API_URL", TELEGRAM_DEFAULTS.apiUrl),
    telegramOAuthUrl: apiUrl("TELEGRAM_OAUTH_URL", TELEGRAM_DEFAULTS.oauthUrl),
    xBearerToken: read("X_BEARER_TOKEN") ?? null,
  };
}

/** The platform's Telegram bot: `TELEGRAM_BOT_TOKEN` with `TELEGRAM_BOT_USERNAME`, both or neither. */
function telegramConfig(read: (name: string) => string | undefined): TelegramConfig | null {
  const botToken = read("TELEGRAM_BOT_TOKEN");
  const botUsername = read("TELEGRAM_BOT_USERNAME")?.replace(/^@/, "");
  if (!botToken && !botUsername) return null;
  if (!botToken || !botUsername) {
    const [missing, given] = botToken ? ["TELEGRAM_BOT_USERNAME", "TELEGRAM_BOT_TOKEN"] : ["TELEGRAM_BOT_TOKEN", "TELEGRAM_BOT_USERNAME"];
    throw new SocialConfigError(`Invalid configuration: ${missing} is required with ${given}`);
  }
  const id = TELEGRAM_BOT_TOKEN.exec(botToken);
  if (!id) throw new SocialConfigError("Invalid configuration: TELEGRAM_BOT_TOKEN must be a bot token as @BotFather gives it (123456:ABC…)");
  if (!/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(botUsername)) throw new SocialConfigError("Invalid configuration: TELEGRAM_BOT_USERNAME must be the bot's username");
  return { botToken, botUsername, botId: id[1]! };
}

/** Outside public production the key is generated once and kept in the data folder, beside the auth secret. */
function localTokenKey(dataDir: string) {
  return Buffer.from(
    keptSecret(path.join(dataDir, "social-token-key"), () => randomBytes(32).toString("hex")),
    "hex",
  );
}

/** A provider's OAuth client, when it is an OAuth provider and configured. */
export function oauthConfigOf(social: SocialConfig, provider: SocialProvider): ProviderConfig | undefined {
  return isOAuthProvider(provider) ? social.providers[provider] : undefined;
}

/** Whether members can connect `provider` on this server: its OAuth client, or for Telegram the platform's bot. */
export function isConnectable(social: Pick<SocialConfig, "connectable">, provider: SocialProvider): boolean {
  return social.connectable[provider] === true;
}
