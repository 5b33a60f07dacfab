import { createContext } from "react-router";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { createChainRegistry, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { openDatabase, type Database } from "~/lib/db.server";
import type { Env } from "./env.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { KNOWN_CHAINS } from "~/wallet/chains";
import type { Logger } from "~/lib/logger.server";
import { startJobEngine, type JobEngine } from "~/lib/job-engine.server";

/** Everything a request may need, built once at start and handed to loaders and actions. */
export type Services = {
  env: Env;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  /** Every chain's client, operator wallet, contract addresses, confirmations and start block (one registry). */
  chains: ChainRegistry;
  logger: Logger;
  /** The job engine: queues and schedules in this database; jobs run only in `worker` and `all` processes. */
  jobs: JobEngine;
  /** Stops what the services started (the local chains, the database). */
  close: () => Promise<void>;
};

export const servicesContext = createContext<Services>();

export async function createServices({ env, logger }: { env: Env; logger: Logger }): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    readLanes: env.DATABASE_READ_LANES,
    onConnectionError: (err) => logger.warn({ err }, "a database connection failed; it will be replaced"),
  });
  let localChains: LocalChain[] = [];
  const stopLocalChains = () => Promise.all(localChains.map((chain) => chain.stop()));
  let chains: ChainRegistry;
  try {
    const started = await startLocalChains(env);
    localChains = [...started.values()];
    const localChainUrls = new Map([...localChainNodes(env), ...[...started].map(([id, chain]) => [id, chain.url] as const)]);
    chains = await createChainRegistry({ env, localChainUrls, logger, database });
  } catch (error) {
    await stopLocalChains();
    await database.close();
    throw error;
  }
  let jobs: JobEngine;
  try {
    jobs = await startJobEngine({ connection: database.jobConnection, runsJobs: env.ROLE !== "web", logger });
  } catch (error) {
    await stopLocalChains();
    await database.close();
    throw error;
  }
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger, chains });
  logger.info({ database: database.kind, role: env.ROLE, mail: mailer.transport, localChains: chains.config.localRpcs }, "services ready");
  return {
    env,
    database,
    auth,
    mailer,
    chains,
    logger,
    jobs,
    close: async () => {
      // Jobs in hand finish first (the engine waits for them), then what they use goes.
      await jobs.stop({ graceful: true, timeout: 30_000 });
      await stopLocalChains();
      await database.close();
    },
  };
}

/** The local chains' nodes the configuration names: the first's LOCAL_CHAIN_RPC_URL, another's RPC_URL_<id>. */
export function localChainNodes(env: Pick<Env, "LOCAL_CHAIN_RPC_URL" | "rpcUrls">): Map<number, string> {
  const nodes = new Map<number, string>();
  if (env.LOCAL_CHAIN_RPC_URL) nodes.set(LOCAL_CHAIN_ID, env.LOCAL_CHAIN_RPC_URL);
  for (const known of KNOWN_CHAINS) {
    const url = known.local && env.rpcUrls.get(known.id);
    if (url) nodes.set(known.id, url);
  }
  return nodes;
}

/**
 * The local chains this process starts itself with LOCAL_CHAIN on: every local chain of the list
 * (the demo's money on two chains) when it starts the first one, each a node of its own; none
 * when LOCAL_CHAIN_RPC_URL names the first (a deployment of several processes shares its nodes).
 * A chain whose node the configuration names is not started.
 */
async function startLocalChains(env: Env): Promise<Map<number, LocalChain>> {
  if (!env.localChain || env.LOCAL_CHAIN_RPC_URL) return new Map();
  const named = localChainNodes(env);
  const ids = KNOWN_CHAINS.filter((known) => known.local && !named.has(known.id)).map((known) => known.id);
  const started = await Promise.allSettled(ids.map((chainId) => startLocalChain({ chainId })));
  const chains = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(chains.map((chain) => chain.stop()));
    throw failed.reason;
  }
  return new Map(ids.map((id, i) => [id, chains[i]!]));
}
