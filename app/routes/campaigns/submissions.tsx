import type { Route } from "./+types/submissions";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { ReviewQueue } from "~/components/campaigns/review-queue";
import { PageHeader } from "~/components/page-header";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { campaignPage } from "~/modules/tasks/quest-pages.server";
import { reviewAnswer, reviewFromForm } from "~/modules/tasks/review-form.server";
import { latestDecisions } from "~/modules/tasks/review-queue.server";
import { submissionFilters } from "~/modules/tasks/submission-filters";
import { listSubmissions, listTasks, submissionCounts } from "~/modules/tasks/tasks.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Submissions · ${loaderData.campaign.name}` : "Submissions") }];
}

async function reviewable({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const page = await campaignPage({ db, projectSlug: params.project, campaignSlug: params.campaign, userId: user.id });
  await authorize({ db, projectId: page.project.id, userId: user.id, action: "submissions.review" });
  return { db, user, ...page };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, user, project, campaign } = await reviewable(args);
  const tasks = await listTasks({ db, campaignId: campaign.id, withDrafts: true });
  const filters = submissionFilters(
    new URL(args.request.url),
    tasks.map((t) => t.id),
  );
  const scope = { db, projectId: project.id, scope: { campaignId: campaign.id } };
  const [list, counts] = await Promise.all([
    listSubmissions({ ...scope, status: filters.status, taskId: filters.task || undefined, search: filters.q || undefined, page: filters.page }),
    submissionCounts(scope),
  ]);
  const decisions = await latestDecisions({ db, completionIds: list.rows.filter((r) => r.status !== "pending").map((r) => r.id) });
  return {
    viewerId: user.id,
    project: { slug: project.slug, name: project.name },
    campaign: { slug: campaign.slug, name: campaign.name },
    filters,
    counts,
    tasks: tasks.map((t) => ({ id: t.id, title: t.title })),
    list: { ...list, rows: list.rows.map((r) => ({ ...r, reviewer: decisions.get(r.id)?.reviewer ?? null })) },
  };
}

/** Approve or reject one or several submissions of this campaign, each through the review rules. */
export async function action(args: Route.ActionArgs) {
  const { db, user, project, campaign } = await reviewable(args);
  const answer = await reviewFromForm({
    db,
    projectId: project.id,
    scope: { campaignId: campaign.id },
    reviewerId: user.id,
    formData: await args.request.formData(),
  });
  return reviewAnswer(answer, { appUrl: args.context.get(servicesContext).env.APP_URL });
}

export default function CampaignSubmissions({ loaderData }: Route.ComponentProps) {
  const { viewerId, project, campaign, filters, counts, tasks, list } = loaderData;
  const ids = { project: project.slug, campaign: campaign.slug };
  const filtered = Boolean(filters.q || filters.task);
  const query = { status: filters.status, task: filters.task || undefined, q: filters.q || undefined };
  return (
    <>
      <ProjectCrumb
        project={project}
        trail={[
          { label: "Campaigns", to: route("projects.campaigns", { project: project.slug }) },
          { label: campaign.name, to: route("campaigns.show", ids) },
        ]}
      />
      <PageHeader title="Submissions" description={`Review what members submitted for ${campaign.name}.`} />
      <ReviewQueue
        viewerId={viewerId}
        filters={filters}
        counts={counts}
        tasks={tasks}
        list={list}
        filtered={filtered}
        csvHref={route("campaigns.submissions.csv", { ...ids, ...query })}
        clearHref={filtered ? route("campaigns.submissions", { ...ids, status: filters.status }) : null}
      />
    </>
  );
}
