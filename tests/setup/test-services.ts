import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadEnv, type Env } from "~/services/env.server";
import { createLogger } from "~/lib/logger.server";
import type { Services } from "~/services/services.server";
import { createAuth } from "~/modules/auth/auth.server";
import { createMailer } from "~/modules/mail/mailer.server";
import { createChainRegistry } from "~/modules/chain/chain-registry.server";
import { createTestDatabase } from "./test-db";

/** The app's real services on a fresh test database; mail goes to `smtpUrl` or the dev inbox. */
export async function createTestServices(overrides: Record<string, string> = {}): Promise<Services> {
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
  const chains = await createChainRegistry({ env, localChainUrl: env.LOCAL_CHAIN_RPC_URL ?? null, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger, chains });
  return { env, database, auth, mailer, chains, logger, close: () => database.close() };
}

let address = 0;
/** A request as the browser would send it to one of our actions, from its own client address. */
export function browserRequest(services: Services, path = "/login", ip = `10.1.0.${++address % 250}`) {
  return new Request(`${services.env.APP_URL}${path}`, {
    method: "POST",
    headers: { origin: services.env.APP_URL, "x-questline-client-ip": ip },
  });
}
