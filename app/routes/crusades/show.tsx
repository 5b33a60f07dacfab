import { Gift, ListOrdered } from "lucide-react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/show";
import { ProgressMeter } from "~/components/campaigns/progress-meter";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { ContainerActions } from "~/components/containers/container-actions";
import { CrusadeSteps } from "~/components/crusades/crusade-steps";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { can } from "~/modules/projects/permissions.server";
import { crusadeSteps } from "~/modules/tasks/campaigns.server";
import { crusadePage } from "~/modules/tasks/quest-pages.server";
import { crusadeStepBlocks } from "~/modules/tasks/task-page.server";
import { memberStates } from "~/modules/tasks/tasks.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Crusade", ({ crusade, project }) => ({
    page: crusade.name,
    description: crusade.description || `${crusade.name}: a ${project.name} crusade, its tasks done in order.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { database, env } = context.get(servicesContext);
  const db = database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role, crusade } = await crusadePage({ db, projectSlug: params.project, crusadeSlug: params.crusade, userId });
  const steps = await crusadeSteps({ db, crusadeId: crusade.id, userId });
  const states = await memberStates({ db, userId, tasks: steps.map((s) => s.task) });
  const blocks = await crusadeStepBlocks({ db, steps, userId, socialProviders: env.social.connectable });
  return {
    project: { slug: project.slug, name: project.name },
    crusade,
    signedIn: userId !== null,
    team: can(role, "drafts.view"),
    canManage: can(role, "quests.manage"),
    canReview: can(role, "submissions.review"),
    steps: steps.map(({ task, state }) => {
      const mine = states.get(task.id);
      return {
        state,
        task: {
          id: task.id,
          title: task.title,
          description: task.description,
          type: task.type,
          verification: task.verification,
          xp: task.xp,
          published: task.publishedAt !== null,
        },
        submission: state === "available" && mine && mine.status !== "approved" ? { status: mine.status, reason: mine.reason } : null,
        block: blocks.get(task.id) ?? null,
      };
    }),
  };
}

export default function CrusadeShow({ loaderData }: Route.ComponentProps) {
  const { project, crusade, signedIn, team, canManage, canReview, steps } = loaderData;
  const location = useLocation();
  const done = steps.filter((s) => s.state === "done").length;
  const xp = steps.reduce((sum, s) => sum + s.task.xp, 0);
  const complete = steps.length > 0 && done === steps.length;
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Crusades", to: route("projects.crusades", { project: project.slug }) }]} />
      <PageHeader
        title={crusade.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {!crusade.publishedAt && <Badge variant="outline">Draft</Badge>}
            {complete && signedIn && <Badge variant="success">Completed</Badge>}
            <span>
              {steps.length} {steps.length === 1 ? "task" : "tasks"}, done in order
            </span>
          </span>
        }
        actions={
          <ContainerActions
            submissionsTo={canReview ? route("projects.review", { project: project.slug, in: `crusade:${crusade.id}` }) : null}
            editTo={canManage ? route("crusades.edit", { project: project.slug, crusade: crusade.slug }) : null}
          />
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          {crusade.description && <p className="text-sm leading-relaxed whitespace-pre-line wrap-anywhere">{crusade.description}</p>}
          <section aria-labelledby="steps-heading" className="grid gap-3">
            <h2 id="steps-heading" className="text-lg font-semibold">
              Tasks
            </h2>
            {steps.length === 0 ? (
              <EmptyState icon={ListOrdered} title="No tasks yet">
                {canManage ? "Edit the crusade to choose its tasks and their order." : "The team has not added tasks to this crusade yet."}
              </EmptyState>
            ) : (
              <CrusadeSteps steps={steps} team={team} />
            )}
          </section>
        </div>
        <aside className="grid content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Your progress</CardTitle>
              {!signedIn && <CardDescription>Sign in to start the crusade and follow your progress.</CardDescription>}
            </CardHeader>
            <CardContent className="pt-4">
              {signedIn ? (
                <ProgressMeter done={done} total={steps.length} label="Tasks done" />
              ) : (
                <Button asChild variant="brand" className="w-full">
                  <Link to={route("login", { redirectTo: location.pathname })}>Sign in</Link>
                </Button>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardDescription className="flex items-center gap-2">
                <Gift className="size-4 text-lime-600 dark:text-brand" aria-hidden /> Completion bonus
              </CardDescription>
              <CardTitle className="text-2xl tabular-nums">{crusade.bonusXp > 0 ? `+${crusade.bonusXp.toLocaleString("en")} XP` : "None"}</CardTitle>
            </CardHeader>
            <CardContent className="pt-3 text-sm text-muted-foreground">
              {crusade.bonusXp > 0 ? "Paid once when your last task is approved, " : "Each task pays its own XP, "}
              on top of the {xp.toLocaleString("en")} XP its tasks pay.
            </CardContent>
          </Card>
        </aside>
      </div>
    </>
  );
}
