import { AsyncLocalStorage } from "node:async_hooks";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { emailOTP, magicLink, siwe } from "better-auth/plugins";
import { generateSiweNonce } from "viem/siwe";
import { z } from "zod";
import * as authSchema from "#db/schema/auth";
import * as walletSchema from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import type { Env } from "~/services/env.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/mail/mailer.server";
import { changeEmailMail, signInMail } from "~/modules/mail/templates.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { checkSiweFields, checkSiweSignature } from "~/modules/wallets/siwe.server";
import { walletPlugin } from "~/modules/wallets/wallet-plugin.server";
import { WALLET_EMAIL_DOMAIN } from "~/modules/wallets/wallets.server";
import { recordReferral, referrerFromCookie } from "~/modules/users/referrals.server";
import { shortAddress } from "~/wallet/chains";
import { claimEmailCooldown } from "./email-cooldown.server";
import { loggableError, withoutParameters } from "~/lib/loggable-error";
import { recordAccess } from "~/modules/trust/access-context.server";
import { CONNECTIONS_PAGE } from "~/modules/social/connections.server";
import { SOCIAL_TRUSTED_PROVIDERS, encryptAccountTokens, recordSocialLink, socialOAuthPlugin, validateSocialLink } from "~/modules/social/social-oauth.server";

/** The header our HTTP server sets to the client's address; any value a client sends is dropped. */
export const CLIENT_IP_HEADER = "x-questline-client-ip";

export const MAGIC_LINK_TTL_SECONDS = 15 * 60;
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_ATTEMPTS = 5;
/** Sign-in e-mails (and sign-ins) one client address may ask for in 5 minutes. */
export const SHARED_NETWORK_SIGN_INS = 120;

/**
 * Paths of better-auth that send a code or a link to an address: each obeys the per-address
 * cooldown. The product uses the first three; the others are not reachable over HTTP (see
 * app/modules/auth/public-endpoints.ts) and are listed so that no path mails without the cooldown.
 */
const SENDING_PATHS = new Set([
  "/sign-in/magic-link",
  "/email-otp/send-verification-otp",
  "/email-otp/request-email-change",
  "/email-otp/request-password-reset",
  "/forget-password/email-otp",
  "/request-password-reset",
  "/send-verification-email",
  "/change-email",
]);

/**
 * While a sign-in e-mail is being composed, the link and the code land here instead of being
 * sent one by one, so the member receives a single e-mail that holds both.
 */
export type SignInDraft = { url?: string; code?: string };
const signInDraft = new AsyncLocalStorage<SignInDraft>();

export function composeSignInEmail<T>(draft: SignInDraft, fn: () => Promise<T>) {
  return signInDraft.run(draft, fn);
}

/** How a session was started, from the endpoint that started it. */
const SIGN_IN_METHODS: Record<string, string> = {
  "/siwe/verify": "wallet",
  "/sign-in/email-otp": "code",
  "/magic-link/verify": "link",
  "/sign-in/email": "password",
};

export function createAuth({
  db,
  env,
  mailer,
  logger,
  chains,
}: {
  db: Db;
  env: Env;
  mailer: Mailer;
  logger: Logger;
  chains: Pick<ChainRegistry, "chainIds" | "get">;
}) {
  const appName = env.APP_NAME;
  const siweOptions = () => ({ appUrl: env.APP_URL, chainIds: chains.chainIds, clientFor: (chainId: number) => chains.get(chainId)?.pageClient });
  // Production runs behind https; cookies are Secure whenever the site is served over https.
  const secure = env.APP_URL.startsWith("https://");
  // Where a sign-up or sign-in came from, kept only as keyed hashes (the trust signals); a failure
  // to keep it is logged and never fails the sign-in.
  const keepAccess = async (kind: "sign_up" | "sign_in", userId: string, ctx: { request?: Request; headers?: Headers } | null | undefined) => {
    const headers = ctx?.request?.headers ?? ctx?.headers;
    try {
      await recordAccess({
        db,
        hashKey: env.trust.hashKey,
        userId,
        kind,
        address: headers?.get(CLIENT_IP_HEADER) ?? null,
        userAgent: headers?.get("user-agent") ?? null,
      });
    } catch (error) {
      logger.error({ component: "auth", kind, err: loggableError(error) }, "the sign-in context could not be kept");
    }
  };

  return betterAuth({
    appName,
    baseURL: env.APP_URL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET,
    trustedOrigins: [env.APP_URL],
    // A social connect that comes back with a state nobody knows (expired, replayed, forged) carries no
    // page of its own to return to: the member is brought back to their connections, the reason in words.
    // What it cannot answer is thrown to `answerAuth`, which logs it without the statement's parameters.
    onAPIError: { errorURL: `${env.APP_URL}${CONNECTIONS_PAGE}`, throw: true },
    // Only the message: what better-auth passes beside it can be a failed statement with its parameters.
    logger: { level: "warn", log: (level, message) => logger[level]({ component: "auth" }, withoutParameters(message)) },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: authSchema.user,
        session: authSchema.session,
        account: authSchema.account,
        verification: authSchema.verification,
        rateLimit: authSchema.rateLimit,
        walletAddress: walletSchema.walletAddress,
      },
    }),
    user: {
      additionalFields: { username: { type: "string", required: false, input: false } },
      // A social account linked to a member: one per provider, not another member's recent one.
      validateUserInfo: async ({ user, source }) => {
        if (source.action !== "link-account" || source.method !== "oauth" || !source.oauth || !user.id) return;
        return (await validateSocialLink({ db, userId: String(user.id), providerId: source.oauth.providerId, profile: source.oauth.profile })) ?? undefined;
      },
    },
    account: {
      // Social accounts are linked to a signed-in member; X and TikTok share no e-mail, so none is compared.
      accountLinking: { enabled: true, trustedProviders: SOCIAL_TRUSTED_PROVIDERS, allowDifferentEmails: true, updateUserInfoOnLink: false },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      additionalFields: { signInMethod: { type: "string", required: false, input: false } },
    },
    databaseHooks: {
      user: {
        create: {
          // A member who arrived through another member's invite link is counted as their referral.
          after: async (created, ctx) => {
            await keepAccess("sign_up", created.id, ctx);
            const referrerId = referrerFromCookie(ctx?.request?.headers.get("cookie") ?? ctx?.headers?.get("cookie") ?? null);
            if (referrerId) await recordReferral({ db, referrerId, referredId: created.id });
          },
        },
      },
      account: {
        // Social tokens are kept encrypted (AES-256-GCM); a link, new or renewed, makes the account the member's.
        create: {
          before: async (data) => ({ data: encryptAccountTokens(env.social.tokenKey, data) }),
          after: async (created) => recordSocialLink({ db, providerId: created.providerId, accountId: created.accountId, userId: created.userId }),
        },
        update: {
          before: async (data) => ({ data: encryptAccountTokens(env.social.tokenKey, data) }),
          after: async (updated) => {
            if (updated.accessToken) await recordSocialLink({ db, providerId: updated.providerId, accountId: updated.accountId, userId: updated.userId });
          },
        },
      },
      session: {
        create: {
          // Every way in (code, link, password, wallet) creates a session here. The client's address and
          // user agent are kept only as keyed hashes (access_context), never on the session; they are
          // kept in `after`, which better-auth runs once the sign-up's transaction, if any, has committed.
          before: async (session, ctx) => ({
            data: { ...session, ipAddress: null, userAgent: null, signInMethod: (ctx?.path && SIGN_IN_METHODS[ctx.path]) ?? null },
          }),
          after: async (created, ctx) => keepAccess("sign_in", created.userId, ctx),
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      // Passwords are set from Settings by a member who signed in another way.
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      // Per client address. A room of people behind one address (an event, an office) must be
      // able to sign in together: 50 in 5 minutes, with room for retries. Abuse of one address or
      // one account is held back by the per-address e-mail cooldown and the per-account guess
      // limits (account-guesses.server.ts), not here.
      customRules: {
        "/sign-in/magic-link": { window: 300, max: SHARED_NETWORK_SIGN_INS },
        "/email-otp/send-verification-otp": { window: 300, max: SHARED_NETWORK_SIGN_INS },
        "/magic-link/verify": { window: 300, max: SHARED_NETWORK_SIGN_INS },
        "/sign-in/email-otp": { window: 300, max: 2 * SHARED_NETWORK_SIGN_INS },
        "/sign-in/email": { window: 300, max: SHARED_NETWORK_SIGN_INS },
        "/get-session": false,
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Social accounts are connected to a member, never used to sign in.
        if (ctx.path === "/sign-in/social")
          throw new APIError("FORBIDDEN", { message: "Sign in with your e-mail or a wallet, then connect social accounts in Settings." });
        if (!SENDING_PATHS.has(ctx.path)) return;
        // The composed sign-in e-mail claims the cooldown once, before asking for the link and the code.
        if (signInDraft.getStore()) return;
        const body = z.object({ email: z.string().optional(), newEmail: z.string().optional() }).safeParse(ctx.body);
        const address = body.success ? (body.data.email ?? body.data.newEmail) : undefined;
        if (!address) return;
        const claim = await claimEmailCooldown({ db, email: address });
        if (!claim.ok) {
          throw new APIError("TOO_MANY_REQUESTS", {
            message: `Please try again after ${claim.retryAfterSeconds} seconds`,
            code: "EMAIL_COOLDOWN",
          });
        }
      }),
    },
    plugins: [
      siwe({
        domain: new URL(env.APP_URL).host,
        emailDomainName: WALLET_EMAIL_DOMAIN,
        anonymous: true,
        getNonce: async () => generateSiweNonce(),
        // A new wallet member is named by their short address until they choose a name.
        ensLookup: async ({ walletAddress }) => ({ name: shortAddress(walletAddress) ?? walletAddress, avatar: "" }),
        // better-auth checks the nonce, domain and times; we check the URI, the chain and the signature.
        async verifyMessage({ message, signature }) {
          const options = siweOptions();
          const { address, chainId } = checkSiweFields(message, options);
          await checkSiweSignature({ message, signature, address, chainId }, options);
          return true;
        },
      }),
      walletPlugin({ db, siwe: siweOptions }),
      socialOAuthPlugin({ db, social: env.social, logger }),
      magicLink({
        expiresIn: MAGIC_LINK_TTL_SECONDS,
        storeToken: "hashed",
        async sendMagicLink({ email, url }) {
          const draft = signInDraft.getStore();
          if (draft) {
            draft.url = url;
            return;
          }
          await mailer.send(signInMail({ appName, to: email, url }));
        },
      }),
      emailOTP({
        expiresIn: CODE_TTL_SECONDS,
        allowedAttempts: CODE_ATTEMPTS,
        storeOTP: "hashed",
        changeEmail: { enabled: true },
        async sendVerificationOTP({ email, otp, type }) {
          const draft = signInDraft.getStore();
          if (draft && type === "sign-in") {
            draft.code = otp;
            return;
          }
          if (type === "change-email") {
            await mailer.send(changeEmailMail({ appName, to: email, code: otp }));
            return;
          }
          // Password-reset and verification codes are not part of the product (their endpoints are
          // not reachable): never send them dressed as a sign-in code.
          if (type !== "sign-in") return;
          await mailer.send(signInMail({ appName, to: email, code: otp }));
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
