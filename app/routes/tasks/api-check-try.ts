import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/api-check-try";
import { parseForm } from "~/lib/forms";
import { formFailure } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { tryApiCheck } from "~/modules/tasks/api-check.server";

const trySchema = z.object({
  url: z.string().trim().min(1, "Enter your server's URL first").max(2000, "Keep the URL under 2000 characters"),
  title: z.string().trim().max(120).default(""),
  taskId: z
    .string()
    .trim()
    .default("")
    .transform((v) => v || null),
});

/**
 * The task form's "Try it" (POST, owners and admins: `api.manage`): a signed test request to the URL
 * typed, and what came back. Nothing is recorded; limited per member (TRY_LIMIT).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, env } = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: database.db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: database.db, projectId: project.id, userId: user.id, action: "api.manage" });
  const form = parseForm(trySchema, await request.formData());
  if (!form.ok) return formFailure(form);
  const tried = await tryApiCheck({
    db: database.db,
    projectId: project.id,
    userId: user.id,
    url: form.data.url,
    task: { id: form.data.taskId, title: form.data.title },
    context: { tokenKey: env.social.tokenKey, allowLoopback: !env.isPublic },
  });
  if (!tried.ok) return formFailure(tried);
  return data({ reply: tried.reply }, { headers: { "cache-control": "no-store" } });
}
