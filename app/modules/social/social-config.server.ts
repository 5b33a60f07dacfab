import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { keptSecret } from "~/lib/kept-secret.server";
import { SOCIAL_PROVIDERS, type SocialProvider } from "./providers";

/** Where one provider's OAuth server and REST API live, and our client's credentials there. Secrets never leave the server. */
/** The profile of a connecting account is read through the REST API (`apiUrl`), as every check is. */
export type ProviderConfig = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
};

export type SocialConfig = {
  /** The AES-256-GCM key that encrypts social tokens at rest (32 bytes). */
  tokenKey: Buffer;
  /** The providers with a client id and secret: the only ones members can connect. */
  providers: Partial<Record<SocialProvider, ProviderConfig>>;
  /** X's app-only token: reads a public post when a member proves their X account by a posted code. */
  xBearerToken: string | null;
};

/** The providers' real endpoints; each can be pointed elsewhere (`X_TOKEN_URL`, …) by self-hosters and the tests. */
export const PROVIDER_DEFAULTS: Record<SocialProvider, Omit<ProviderConfig, "clientId" | "clientSecret">> = {
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
};

/** The environment variable prefix of each provider: `X_CLIENT_ID`, `YOUTUBE_TOKEN_URL`, … */
export const PROVIDER_ENV_PREFIX: Record<SocialProvider, string> = { x: "X", youtube: "YOUTUBE", tiktok: "TIKTOK", instagram: "INSTAGRAM" };

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
  for (const provider of SOCIAL_PROVIDERS) {
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

  const configured = Object.keys(providers).length > 0;
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
  return { tokenKey, providers, xBearerToken: read("X_BEARER_TOKEN") ?? null };
}

/** Outside public production the key is generated once and kept in the data folder, beside the auth secret. */
function localTokenKey(dataDir: string) {
  return Buffer.from(
    keptSecret(path.join(dataDir, "social-token-key"), () => randomBytes(32).toString("hex")),
    "hex",
  );
}
