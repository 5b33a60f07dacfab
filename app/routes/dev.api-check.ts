import { data } from "react-router";
import type { Route } from "./+types/dev.api-check";
import { servicesContext } from "~/services/services.server";
import { answerDemoApiCheck } from "~/modules/demo/seed-api-check.server";

/**
 * The local trial's stand-in for a project's own server (api_check tasks): checks our signature
 * with the project's signing secret and answers `{ done }` (done once the member has linked a
 * wallet). Absent when served publicly.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, database } = context.get(servicesContext);
  if (env.isPublic) throw data("Not found", { status: 404 });
  const headers = Object.fromEntries(request.headers);
  const answer = await answerDemoApiCheck({ db: database.db, tokenKey: env.social.tokenKey, headers, body: await request.text() });
  return Response.json(answer.json, { status: answer.status });
}

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  if (env.isPublic) throw data("Not found", { status: 404 });
  return Response.json({ about: "POST a signed api_check request here: answers { done: true } once the member has linked a wallet." });
}
