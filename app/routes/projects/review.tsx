import { z } from "zod";
import type { Route } from "./+types/review";
import { AppealQueue } from "~/components/trust/appeal-queue";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { ReviewQueue } from "~/components/campaigns/review-queue";
import { PageHeader } from "~/components/page-header";
import { dataWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize, can, roleIn } from "~/modules/projects/permissions.server";
import { listCampaigns, listCrusades } from "~/modules/tasks/campaigns.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import { reviewAnswer, reviewFromForm } from "~/modules/tasks/review-form.server";
import { latestDecisions } from "~/modules/tasks/review-queue.server";
import { reviewQueueOf, reviewQueueOptions, submissionFilters } from "~/modules/tasks/submission-filters";
import { listSubmissions, listTasks, submissionCounts } from "~/modules/tasks/tasks.server";
import { decideAppeal, pendingAppealsOf } from "~/modules/trust/appeals.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `To review · ${loaderData.project.name}` : "To review") }];
}

/** The project's review queues, for those who may review: its campaigns', its crusades' and its standalone tasks'. */
async function reviewable({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const { project } = await projectPage({ db, slug: params.project, userId: user.id });
  await authorize({ db, projectId: project.id, userId: user.id, action: "submissions.review" });
  const [campaigns, crusades] = await Promise.all([
    listCampaigns({ db, projectId: project.id, withDrafts: true }),
    listCrusades({ db, projectId: project.id, withDrafts: true, userId: null }),
  ]);
  const queues = reviewQueueOptions({ campaigns, crusades });
  return { db, user, project, queues, queue: reviewQueueOf(new URL(request.url), queues) };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, user, project, queues, queue } = await reviewable(args);
  const tasks = await listTasks({ db, projectId: project.id, withDrafts: true });
  const filters = submissionFilters(
    new URL(args.request.url),
    tasks.map((t) => t.id),
  );
  const scope = { db, projectId: project.id, scope: queue.scope };
  const [list, counts, role] = await Promise.all([
    listSubmissions({ ...scope, status: filters.status, taskId: filters.task || undefined, search: filters.q || undefined, page: filters.page }),
    submissionCounts(scope),
    roleIn({ db, projectId: project.id, userId: user.id }),
  ]);
  // Appeals of exclusions land here too, for those who may see the project's trust data.
  const appeals = can(role, "trust.view") ? await pendingAppealsOf({ db, projectId: project.id }) : null;
  const decisions = await latestDecisions({ db, completionIds: list.rows.filter((r) => r.status !== "pending").map((r) => r.id) });
  return {
    viewerId: user.id,
    project: { slug: project.slug, name: project.name },
    queues,
    queue: queue.value,
    filters,
    counts,
    tasks: tasks.map((t) => ({ id: t.id, title: t.title })),
    list: { ...list, rows: list.rows.map((r) => ({ ...r, reviewer: decisions.get(r.id)?.reviewer ?? null })) },
    appeals,
  };
}

const appealDecisionSchema = z.object({ appealId: z.string().min(1).max(100), decision: z.enum(["uphold", "deny"]), answer: z.string().max(5000) });

/** Approve or reject one or several submissions of the chosen queue, each through the review rules; or uphold or deny an appeal. */
export async function action(args: Route.ActionArgs) {
  const { db, user, project, queue } = await reviewable(args);
  const formData = await args.request.formData();
  if (formData.has("appealId")) {
    await authorize({ db, projectId: project.id, userId: user.id, action: "trust.view" });
    const form = appealDecisionSchema.safeParse(Object.fromEntries(formData));
    if (!form.success) return formFailure(failure("conflict", "This page is out of date. Reload it and try again."));
    const decided = await decideAppeal({ db, projectId: project.id, actorId: user.id, ...form.data });
    if (!decided.ok) return formFailure(decided);
    const said = form.data.decision === "uphold" ? "Appeal upheld: the exclusion is lifted" : "Appeal denied";
    return dataWithToast({ errors: {} }, said, { appUrl: args.context.get(servicesContext).env.APP_URL });
  }
  const answer = await reviewFromForm({ db, projectId: project.id, scope: queue.scope, reviewerId: user.id, formData });
  return reviewAnswer(answer, { appUrl: args.context.get(servicesContext).env.APP_URL });
}

export default function ProjectReview({ loaderData }: Route.ComponentProps) {
  const { viewerId, project, queues, queue, filters, counts, tasks, list, appeals } = loaderData;
  const filtered = Boolean(filters.q || filters.task || queue);
  return (
    <>
      <ProjectCrumb project={project} trail={[]} />
      <PageHeader title="To review" description={`Everything members of ${project.name} submitted for review: campaigns, crusades and standalone tasks.`} />
      {appeals && appeals.length > 0 && (
        <div className="mb-6">
          <AppealQueue appeals={appeals} viewerId={viewerId} />
        </div>
      )}
      <ReviewQueue
        viewerId={viewerId}
        filters={filters}
        counts={counts}
        tasks={tasks}
        list={list}
        filtered={filtered}
        queue={{ value: queue, options: queues }}
        clearHref={filtered ? route("projects.review", { project, status: filters.status }) : null}
      />
    </>
  );
}
