import { createContext } from "react-router";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { createChainRegistry, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { openDatabase, type Database } from "~/lib/db.server";
import type { Env } from "./env.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
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
  /** Stops what the services started (the local chain, the database). */
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
  let localChain: LocalChain | null = null;
  if (env.localChain && !env.LOCAL_CHAIN_RPC_URL) localChain = await startLocalChain();
  let chains: ChainRegistry;
  try {
    chains = await createChainRegistry({ env, localChainUrl: env.LOCAL_CHAIN_RPC_URL ?? localChain?.url ?? null, logger, database });
  } catch (error) {
    await localChain?.stop();
    await database.close();
    throw error;
  }
  let jobs: JobEngine;
  try {
    jobs = await startJobEngine({ connection: database.jobConnection, runsJobs: env.ROLE !== "web", logger });
  } catch (error) {
    await localChain?.stop();
    await database.close();
    throw error;
  }
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger, chains });
  logger.info({ database: database.kind, role: env.ROLE, mail: mailer.transport, localChain: chains.config.rpc }, "services ready");
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
      await localChain?.stop();
      await database.close();
    },
  };
}
