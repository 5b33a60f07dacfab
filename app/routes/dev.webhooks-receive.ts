import { data } from "react-router";
import type { Route } from "./+types/dev.webhooks-receive";
import { servicesContext } from "~/services/services.server";
import { receiveDevWebhook } from "~/modules/webhooks/dev-receiver.server";

/** The local trial's webhook receiver: checks the signature, keeps the message for /dev/webhooks. 404 in public mode. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, database } = context.get(servicesContext);
  if (env.isPublic) throw data("Not found", { status: 404 });
  const body = (await request.text()).slice(0, 256 * 1024);
  const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, request.headers.get(name) ?? undefined]));
  const received = await receiveDevWebhook({
    db: database.db,
    tokenKey: env.social.tokenKey,
    dataDir: env.DATA_DIR,
    endpointId: params.endpoint,
    headers,
    body,
  });
  if (!received.known) return new Response("No such endpoint.", { status: 404 });
  return received.signatureValid ? new Response(null, { status: 204 }) : new Response("Invalid signature.", { status: 400 });
}

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  if (env.isPublic) throw data("Not found", { status: 404 });
  return new Response("POST signed webhooks here.", { status: 405, headers: { allow: "POST" } });
}
