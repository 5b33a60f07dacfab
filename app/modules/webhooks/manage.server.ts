import { data } from "react-router";
import type { Db } from "~/lib/db.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";

/** The project of a webhook page, when the member may manage its webhooks: a 404 or 403 response is thrown otherwise. */
export async function webhookProject({ db, slug, userId }: { db: Db; slug: string; userId: string }) {
  const project = await projectBySlug({ db, slug });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db, projectId: project.id, userId, action: "webhooks.manage" });
  return project;
}
