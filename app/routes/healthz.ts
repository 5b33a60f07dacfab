import type { Route } from "./+types/healthz";
import { servicesContext } from "~/services/services.server";

/** 200 when the database answers, 503 otherwise. */
export async function loader({ context }: Route.LoaderArgs) {
  const { database, logger } = context.get(servicesContext);
  try {
    await database.ping();
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    logger.error({ err }, "health check: the database does not answer");
    return Response.json({ status: "unavailable" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
