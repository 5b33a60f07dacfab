import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/api-check-secret";
import { parseForm } from "~/lib/forms";
import { formFailure } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { projectSigningSecretOf, rotateProjectSigningSecret } from "~/modules/tasks/signing-secret.server";

const secretSchema = z.object({ intent: z.enum(["reveal", "rotate"], { error: "Reveal or rotate" }) });

/**
 * The project's signing secret (api_check tasks), for owners and admins (`api.manage`): revealed or
 * rotated only by an explicit POST, never in a page's data. Its answer is not cached.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, env } = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: database.db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: database.db, projectId: project.id, userId: user.id, action: "api.manage" });
  const form = parseForm(secretSchema, await request.formData());
  if (!form.ok) return formFailure(form);
  const args = { db: database.db, projectId: project.id, tokenKey: env.social.tokenKey };
  const kept = form.data.intent === "rotate" ? null : await projectSigningSecretOf(args);
  // Rotated on request, or when the kept one cannot be read (SOCIAL_TOKEN_KEY changed): it could sign nothing.
  const secret = kept ?? (await rotateProjectSigningSecret(args));
  return data({ secret, rotated: kept === null }, { headers: { "cache-control": "no-store" } });
}
