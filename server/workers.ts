import type { Services } from "~/lib/services.server";
import { purgeExpired } from "~/modules/maintenance/purge-expired.server";

const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Background work that runs inside the web process. Returns a stop function that waits for the
 * run in progress, so shutdown never cuts a job in half.
 */
export function startWorkers({ database, logger }: Pick<Services, "database" | "logger">) {
  let running: Promise<void> | null = null;
  const purge = () => {
    running ??= purgeExpired({ db: database.db })
      .then((purged) => logger.debug({ purged }, "purged expired rows"))
      .catch((err: unknown) => logger.error({ err }, "purge failed; it runs again later"))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  purge();
  return async function stop() {
    clearInterval(timer);
    await running;
  };
}
