import { createContext } from "react-router";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { openDatabase, type Database } from "./db.server";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";

/** Everything a request may need, built once at start and handed to loaders and actions. */
export type Services = {
  env: Env;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
};

export const servicesContext = createContext<Services>();

export async function createServices({ env, logger }: { env: Env; logger: Logger }): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    onConnectionError: (err) => logger.warn({ err }, "a database connection failed; it will be replaced"),
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger });
  logger.info({ database: database.kind, mail: mailer.transport }, "services ready");
  return { env, database, auth, mailer, logger };
}
