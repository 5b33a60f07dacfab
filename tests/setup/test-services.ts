import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadEnv, type Env } from "~/services/env.server";
import { createLogger } from "~/lib/logger.server";
import { localChainNodes, type Services } from "~/services/services.server";
import { createAuth } from "~/modules/auth/auth.server";
import { createMailer } from "~/modules/mail/mailer.server";
import { createChainRegistry } from "~/modules/chain/chain-registry.server";
import { createTestDatabase } from "./test-db";
import { startJobEngine, type JobEngine } from "~/lib/job-engine.server";

/**
 * The app's real services on a fresh test database; mail goes to `smtpUrl` or the dev inbox. The
 * job engine is started only with `{ jobs: true }` (its schema takes a few seconds to install); a
 * test that reaches for it without asking fails plainly.
 */
export async function createTestServices(overrides: Record<string, string> = {}, { jobs: withJobs = false } = {}): Promise<Services> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-test-"));
  const env: Env = loadEnv({
    NODE_ENV: "test",
    APP_URL: "http://localhost:3000",
    DATA_DIR: dataDir,
    AUTH_SECRET: "test-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    ...overrides,
  });
  const logger = createLogger("silent");
  const database = await createTestDatabase();
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db, logger });
  const chains = await createChainRegistry({ env, localChainUrls: localChainNodes(env), logger, database });
  const auth = createAuth({ db: database.db, env, mailer, logger, chains });
  const jobs = withJobs ? await startJobEngine({ connection: database.jobConnection, runsJobs: false, logger }) : noJobEngine();
  return {
    env,
    database,
    auth,
    mailer,
    chains,
    logger,
    jobs,
    close: async () => {
      if (withJobs) await jobs.stop({ graceful: true });
      await database.close();
    },
  };
}

function noJobEngine(): JobEngine {
  return new Proxy({} as JobEngine, {
    get: (_target, property) => {
      throw new Error(`These test services have no job engine (asked for jobs.${String(property)}): createTestServices(env, { jobs: true })`);
    },
  });
}

let address = 0;
/** A request as the browser would send it to one of our actions, from its own client address. */
export function browserRequest(services: Services, path = "/login", ip = `10.1.0.${++address % 250}`) {
  return new Request(`${services.env.APP_URL}${path}`, {
    method: "POST",
    headers: { origin: services.env.APP_URL, "x-questline-client-ip": ip },
  });
}
