import { createContext } from "react-router";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { readContractAddresses, type ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { createChainAccess, type ChainAccess } from "~/modules/wallets/chain-access.server";
import { openDatabase, type Database } from "~/lib/db.server";
import type { Env } from "./env.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { Logger } from "~/lib/logger.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/** Everything a request may need, built once at start and handed to loaders and actions. */
export type Services = {
  env: Env;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  chains: ChainAccess;
  /** Questline's contract addresses per chain id (deployments/*.json, env, the local chain's own deployment). */
  contracts: Map<number, ContractAddresses>;
  logger: Logger;
  /** Stops what the services started (the local chain, the database). */
  close: () => Promise<void>;
};

export const servicesContext = createContext<Services>();

export async function createServices({ env, logger }: { env: Env; logger: Logger }): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    onConnectionError: (err) => logger.warn({ err }, "a database connection failed; it will be replaced"),
  });
  let localChain: LocalChain | null = null;
  if (env.localChain && !env.LOCAL_CHAIN_RPC_URL) localChain = await startLocalChain();
  const chains = createChainAccess({ env, localChainUrl: env.LOCAL_CHAIN_RPC_URL ?? localChain?.url ?? null, logger });
  let contracts: Map<number, ContractAddresses>;
  try {
    contracts = readContractAddresses({ dir: env.DEPLOYMENTS_DIR, overrides: env.contractAddresses });
    // The local chain gets its contracts (once per fresh chain) and the dev accounts their tokens.
    if (chains.config.rpc) {
      const local = await ensureLocalContracts({ rpcUrl: chains.config.rpc, known: contracts.get(LOCAL_CHAIN_ID), logger });
      contracts.set(LOCAL_CHAIN_ID, local.addresses);
    }
  } catch (error) {
    await localChain?.stop();
    await database.close();
    throw error;
  }
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger, chains });
  logger.info({ database: database.kind, mail: mailer.transport, localChain: chains.config.rpc }, "services ready");
  return {
    env,
    database,
    auth,
    mailer,
    chains,
    contracts,
    logger,
    close: async () => {
      await localChain?.stop();
      await database.close();
    },
  };
}
