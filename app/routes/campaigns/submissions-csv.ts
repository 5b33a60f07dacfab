import type { Route } from "./+types/submissions-csv";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { campaignPage } from "~/modules/tasks/quest-pages.server";
import { submissionFilters } from "~/modules/tasks/submission-filters";
import { listTasks, submissionsCsv } from "~/modules/tasks/tasks.server";

/** The campaign's submissions with the table's filters (status, task, search), as a CSV download. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const { project, campaign } = await campaignPage({ db, projectSlug: params.project, campaignSlug: params.campaign, userId: user.id });
  await authorize({ db, projectId: project.id, userId: user.id, action: "submissions.review" });
  const tasks = await listTasks({ db, campaignId: campaign.id, withDrafts: true });
  const filters = submissionFilters(
    new URL(request.url),
    tasks.map((t) => t.id),
  );
  const csv = await submissionsCsv({
    db,
    projectId: project.id,
    scope: { campaignId: campaign.id },
    status: filters.status,
    taskId: filters.task || undefined,
    search: filters.q || undefined,
  });
  const filename = `${project.slug}-${campaign.slug}-${filters.status}-submissions.csv`;
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "private, no-store",
    },
  });
}
