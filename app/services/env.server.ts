import { availableParallelism } from "node:os";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_APP_NAME } from "~/lib/app-name";
import { keptSecret } from "~/lib/kept-secret.server";
import { contractAddressesFromEnv, type ContractAddressOverrides } from "~/modules/chain/contract-addresses.server";
import { socialConfigFromEnv, type SocialConfig } from "~/modules/social/social-config.server";
import { trustConfigFromEnv, type TrustConfig } from "~/modules/trust/trust-config.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { CHAIN_DETAILS } from "~/wallet/chain-details";
import { knownChain, KNOWN_CHAINS } from "~/wallet/chains";

/** Confirmations a deposit (to be credited) and a withdrawal (to be settled) need per chain unless CONFIRMATIONS says otherwise: the list of chains' own. */
export const DEFAULT_CONFIRMATIONS = KNOWN_CHAINS.map((chain) => `${chain.id}:${CHAIN_DETAILS[chain.id]!.confirmations}`).join(",");
const CONFIRMATIONS_LIST = /^\s*[1-9]\d{0,11}\s*:\s*[1-9]\d{0,5}\s*(,\s*[1-9]\d{0,11}\s*:\s*[1-9]\d{0,5}\s*)*$/;

/** `56:41000000,11155111:6200000`: the block each chain's vault was deployed at (0 allowed). */
const START_BLOCK_LIST = /^\s*[1-9]\d{0,11}\s*:\s*\d{1,15}\s*(,\s*[1-9]\d{0,11}\s*:\s*\d{1,15}\s*)*$/;

/** `31337:1,56:15` as chain id → number (the list is checked by its pattern first). */
function numbersByChain(list: string): Map<number, number> {
  return new Map(list.split(",").map((pair) => pair.split(":").map((part) => Number(part.trim())) as [number, number]));
}
/** A token amount in whole tokens: a decimal with at most 18 decimals. */
const tokenAmount = z.string().regex(/^\d{1,30}(\.\d{1,18})?$/, "must be a token amount such as 1 or 0.5 (at most 18 decimals)");

/**
 * The whole configuration, parsed once at start. Every variable is documented in the README.
 * A bad value stops the start with one line naming the variable and the problem.
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** 0: any free port (the job process `npm start` runs beside its web processes). */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    APP_URL: z.url({ protocol: /^https?$/ }).optional(),
    APP_NAME: z.string().trim().min(1).max(60).default(DEFAULT_APP_NAME),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
    /** Pipelined read-only connections for one-shot reads on PostgreSQL (decision 035); 0 turns them off. */
    DATABASE_READ_LANES: z.coerce.number().int().min(0).max(8).default(2),
    DATA_DIR: z.string().min(1).default("./data"),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Questline <no-reply@questline.local>"),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    REOWN_PROJECT_ID: z
      .string()
      .regex(/^[0-9a-f]{32}$/, "must be a 32-character hex project id")
      .optional(),
    ANKR_KEY: z.string().min(1).optional(),
    INFURA_KEY: z.string().min(1).optional(),
    BLAST_KEY: z.string().min(1).optional(),
    LOCAL_CHAIN_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
    LOCAL_CHAIN: z.enum(["on", "off"]).optional(),
    /** Where `deployments/<chainId>.json` (contract addresses per chain) are read from. */
    DEPLOYMENTS_DIR: z.string().min(1).default("./deployments"),
    /** `false` keeps a fresh database empty instead of seeding the demo. */
    SEED_DEMO: z.enum(["true", "false"]).default("true"),
    /** Platform operators: comma-separated e-mails and/or 0x wallet addresses. */
    OPERATORS: z.string().default(""),
    TRUST_PROXY: z.enum(["none", "loopback", "all"]).default("none"),
    /**
     * What this process does: `web` serves pages and runs no job, `worker` runs the jobs and serves
     * only /healthz and /metrics, `all` both (the one-process start). `--role` on the command line sets it.
     */
    ROLE: z.enum(["web", "worker", "all"]).default("all"),
    /**
     * Web processes `npm start` runs on one port (Node's cluster module), beside one job process.
     * By default one per core where they can share the database (PostgreSQL, no local chain of
     * their own), else one process doing everything.
     */
    WEB_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
    /** A bearer token that lets a scraper read /metrics from another host (loopback may always read it). */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** How often the worker looks for ended campaigns whose reward pools to pay (milliseconds). */
    REWARDS_EVERY_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
    /** How often the deposit scanner reads each chain's vault for deposits (milliseconds). */
    DEPOSIT_SCAN_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
    /** Confirmations deposits and withdrawals need, per chain: `chainId:n` pairs, comma-separated. */
    CONFIRMATIONS: z
      .string()
      .regex(CONFIRMATIONS_LIST, "must be chainId:confirmations pairs separated by commas, e.g. 31337:1,56:15 (each at least 1)")
      .default(DEFAULT_CONFIRMATIONS),
    /** Where the deposit scanner starts reading each chain (its vault's deployment block): `chainId:block` pairs. */
    DEPOSIT_START_BLOCKS: z.string().regex(START_BLOCK_LIST, "must be chainId:block pairs separated by commas, e.g. 56:41000000").optional(),
    /** The key that signs vault withdrawals (0x + 64 hex); on the local chain anvil's dev account 9 by default. Never logged. */
    OPERATOR_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
      .optional(),
    /** The smallest withdrawal, in tokens (a decimal such as "1" or "0.5"). */
    WITHDRAWAL_MIN: tokenAmount.default("1"),
    /** The most a member may withdraw per asset in 24 hours, in tokens. */
    WITHDRAWAL_DAILY_LIMIT: tokenAmount.default("10000"),
    /** The platform's fee per withdrawal, in tokens, taken from the amount. */
    WITHDRAWAL_FEE: tokenAmount.default("0"),
    /** How long the background jobs wait for one answer of a chain node before trying once more (milliseconds). */
    CHAIN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** How long a page or action waits for a chain node, once, before saying the chain could not be reached (milliseconds). */
    CHAIN_PAGE_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(800),
    /** How many of a chain's latest blocks "Find my transaction" looks through for a member's transaction (a contract-call task). */
    FIND_TX_BLOCKS: z.coerce.number().int().min(10).max(100_000).default(2_000),
    /** How often the withdrawal job sends and follows withdrawals (milliseconds). */
    WITHDRAW_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
    /** How long a transaction the operator sent may be missing from the node before it is broadcast again (milliseconds). */
    WITHDRAWAL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
    /** How long a transaction the operator sent may wait unmined in the node's pool before it is replaced with a higher fee (milliseconds). */
    OPERATOR_BUMP_AFTER_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(120_000),
    /** Invitations (new or resent) one project may send per hour. */
    INVITES_PER_PROJECT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    /** Invitations (new or resent) one member may send per hour, across projects. */
    INVITES_PER_INVITER_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    /** Seconds between two resends of one invitation. */
    INVITE_RESEND_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    /** Projects one member may create per day. */
    PROJECTS_PER_MEMBER_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(10),
    /** Requests one API key may make per minute (/api/v1); more are answered 429 with Retry-After. */
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  })
  .transform((raw) => {
    /**
     * A production build that others can reach: not both APP_URL and HOST on this machine's
     * loopback. Only then are real mail and a configured secret required and the local chain off
     * by default; a production build kept on loopback (the README's `npm start`) is a local trial
     * with the dev inbox.
     */
    const isPublic = raw.NODE_ENV === "production" && !(isLoopback(raw.APP_URL ?? "http://localhost") && isLoopbackHost(raw.HOST));
    return {
      ...raw,
      APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ""),
      DATA_DIR: path.resolve(raw.DATA_DIR),
      DEPLOYMENTS_DIR: path.resolve(raw.DEPLOYMENTS_DIR),
      isPublic,
      operators: raw.OPERATORS.split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
      /** CONFIRMATIONS per chain id; chains it does not name keep their default. */
      confirmations: new Map([...numbersByChain(DEFAULT_CONFIRMATIONS), ...numbersByChain(raw.CONFIRMATIONS)]),
      /** DEPOSIT_START_BLOCKS per chain id; a chain it does not name is read from its head when first scanned (the local chain from block 0). */
      depositStartBlocks: raw.DEPOSIT_START_BLOCKS ? numbersByChain(raw.DEPOSIT_START_BLOCKS) : new Map<number, number>(),
      /** The local development chain (anvil, chain id 31337): on unless served publicly, or turned off. */
      localChain: (raw.LOCAL_CHAIN ?? (isPublic ? "off" : "on")) === "on",
    };
  });

export type Env = z.infer<typeof envSchema> & {
  AUTH_SECRET: string;
  /** How many web processes this start runs (1: this process serves everything its ROLE says). */
  webProcesses: number;
  /** Contract addresses from `QUEST_TOKEN_ADDRESS_<chainId>`-style variables (see app/modules/chain). */
  contractAddresses: ContractAddressOverrides;
  /** A node of each chain given by `RPC_URL_<chainId>` (the server's alone: never sent to a browser). */
  rpcUrls: Map<number, string>;
  /** A node's WebSocket of each chain given by `RPC_WS_URL_<chainId>`, whose new heads the jobs follow (the server's alone). */
  rpcWebSocketUrls: Map<number, string>;
  /** The social providers members can connect, and the key their tokens are kept under (see app/modules/social). */
  social: SocialConfig;
  /** The sybil defence's hashing key and the addresses that fund everyone (see app/modules/trust). */
  trust: TrustConfig;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Treats empty strings as unset, so `FOO=` in a shell means "use the default". */
function withoutEmpty(source: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = issue.path.join(".") || "configuration";
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const env = parsed.data;
  if (env.isPublic && !env.SMTP_URL) {
    throw new ConfigError("Invalid configuration: SMTP_URL is required in production (mail cannot be delivered without it)");
  }
  if (env.isPublic && !env.AUTH_SECRET) {
    throw new ConfigError("Invalid configuration: AUTH_SECRET is required in production (at least 32 characters)");
  }
  if (env.isPublic && env.APP_URL.startsWith("https://") && env.TRUST_PROXY === "none") {
    throw new ConfigError(
      "Invalid configuration: TRUST_PROXY must be loopback or all when APP_URL is https:// (behind a TLS proxy every request would look like http:// and forms would be refused)",
    );
  }
  const webProcesses = webProcessesOf(env);
  const contractAddresses = contractAddressesFromEnv(source);
  const rpcUrls = rpcUrlsFromEnv(withoutEmpty(source));
  const rpcWebSocketUrls = rpcWebSocketUrlsFromEnv(withoutEmpty(source));
  const social = socialConfigFromEnv(source, { isPublic: env.isPublic, dataDir: env.DATA_DIR });
  const authSecret = env.AUTH_SECRET ?? localAuthSecret(env.DATA_DIR);
  const trust = trustConfigFromEnv(source, { authSecret });
  return { ...env, AUTH_SECRET: authSecret, webProcesses, contractAddresses, rpcUrls, rpcWebSocketUrls, social, trust };
}

/** `RPC_URL_<chainId>` variables: a known chain's node each (the local chain's is LOCAL_CHAIN_RPC_URL). */
const rpcUrlsFromEnv = (source: Record<string, string | undefined>) =>
  perChainUrlsFromEnv(source, "RPC_URL_", z.url({ protocol: /^https?$/, error: "must be an http(s) URL of the chain's node" }));

/**
 * `RPC_WS_URL_<chainId>` variables: a known chain's node over WebSocket each, whose new heads the
 * deposit scan follows (the local chain's is its node's own URL, anvil serving both on one port).
 */
const rpcWebSocketUrlsFromEnv = (source: Record<string, string | undefined>) =>
  perChainUrlsFromEnv(source, "RPC_WS_URL_", z.url({ protocol: /^wss?$/, error: "must be a ws:// or wss:// URL of the chain's node" }));

/** The `<prefix><chainId>` variables: a URL each for a known chain other than the local one, refused in words otherwise. */
function perChainUrlsFromEnv(source: Record<string, string | undefined>, prefix: string, url: z.ZodType<string>): Map<number, string> {
  const urls = new Map<number, string>();
  for (const [name, value] of Object.entries(source)) {
    if (!name.startsWith(prefix) || !/^\d+$/.test(name.slice(prefix.length)) || value === undefined) continue;
    const chainId = Number(name.slice(prefix.length));
    const chain = knownChain(chainId);
    if (!chain || chain.id === LOCAL_CHAIN_ID) {
      const known = KNOWN_CHAINS.filter((c) => c.id !== LOCAL_CHAIN_ID).map((c) => `${c.id} (${c.name})`);
      throw new ConfigError(`Invalid configuration: ${name} names chain ${chainId}, which has no ${prefix} variable; known chains: ${known.join(", ")}`);
    }
    const parsed = url.safeParse(value);
    if (!parsed.success) throw new ConfigError(`Invalid configuration: ${name} ${parsed.error.issues[0]!.message}`);
    urls.set(chainId, parsed.data);
  }
  return urls;
}

/**
 * Web processes need a database several processes can open (PostgreSQL: PGlite's folder is one
 * process's) and a chain none of them starts itself (each would start its own anvil).
 */
function webProcessesOf(env: z.infer<typeof envSchema>) {
  const shareable = env.ROLE === "all" && env.DATABASE_URL !== undefined && (!env.localChain || env.LOCAL_CHAIN_RPC_URL !== undefined);
  if (env.WEB_PROCESSES === undefined) return shareable ? availableParallelism() : 1;
  if (env.WEB_PROCESSES > 1 && !shareable)
    throw new ConfigError(
      "Invalid configuration: WEB_PROCESSES above 1 needs ROLE=all, DATABASE_URL (PostgreSQL; the embedded database is one process's) and LOCAL_CHAIN=off or LOCAL_CHAIN_RPC_URL (each process would start its own local chain)",
    );
  return env.WEB_PROCESSES;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const isLoopbackHost = (host: string) => LOOPBACK_HOSTS.has(host.toLowerCase());
const isLoopback = (url: string) => isLoopbackHost(new URL(url).hostname);

/** Outside public production a missing secret is generated once and kept in the data folder. */
function localAuthSecret(dataDir: string) {
  return keptSecret(path.join(dataDir, "auth-secret"), () => randomBytes(32).toString("base64url"));
}
