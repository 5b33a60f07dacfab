import { Pencil, Trophy } from "lucide-react";
import { useEffect } from "react";
import { data, Link, useActionData, useLocation } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/show";
import { PageHeader } from "~/components/page-header";
import { AuthCard, ConnectCard } from "~/components/tasks/auth-card";
import { TaskAction } from "~/components/tasks/task-action";
import { TaskDetails } from "~/components/tasks/task-details";
import { TaskInstructions } from "~/components/tasks/task-instructions";
import { LinkWalletFirst } from "~/components/tasks/onchain-instructions";
import { BlockNotice, MemberStateNotice } from "~/components/tasks/task-notices";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { dataPageMeta } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession, requireUser } from "~/modules/auth/session.server";
import { PROVIDER_LABELS } from "~/modules/social/providers";
import { authorize, can, roleIn } from "~/modules/projects/permissions.server";
import { attemptFromForm } from "~/modules/tasks/attempt-form.server";
import { gateEntryCheck } from "~/modules/trust/gate-entry.server";
import { taskGatePanelOf } from "~/modules/trust/gate-panels.server";
import { GatePanel } from "~/components/trust/gate-panel";
import { publicTask, taskBrief, taskContext } from "~/modules/tasks/task-page.server";
import { taskWithProject } from "~/modules/tasks/tasks.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Task", ({ task, project }) => ({
    page: task.title,
    description: task.description || `${task.title}: a ${project.name} task worth ${task.xp} XP.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { database, env, chains } = context.get(servicesContext);
  const db = database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const row = await taskWithProject({ db, taskId: params.task });
  if (!row) throw data("Not found", { status: 404 });
  const role = await roleIn({ db, projectId: row.project.id, userId });
  if (!row.task.publishedAt && !can(role, "drafts.view")) {
    // A draft is the team's: a visitor finds nothing, a member outside the team is refused.
    if (!userId) throw data("Not found", { status: 404 });
    await authorize({ db, projectId: row.project.id, userId, action: "drafts.view" });
  }
  const inviteLink = userId && row.task.type === "referral" ? `${env.APP_URL}/?ref=${encodeURIComponent(userId)}` : null;
  return {
    task: publicTask(row.task),
    project: row.project,
    brief: taskBrief(row.task, { inviteLink }),
    ...(await taskContext({ db, task: row.task, userId, social: env.social })),
    signedIn: userId !== null,
    // Who may take part in its campaign or airdrop, and what the member still needs.
    gate: await taskGatePanelOf({ db, chains, task: row.task, userId }),
    team: { edit: can(role, "quests.manage"), leaderboard: can(role, "drafts.view") },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const row = await taskWithProject({ db: services.database.db, taskId: params.task });
  if (!row) throw data("Not found", { status: 404 });
  const outcome = await attemptFromForm({
    db: services.database.db,
    task: row.task,
    userId: user.id,
    formData: await request.formData(),
    dataDir: services.env.DATA_DIR,
    chains: services.chains,
    social: { social: services.env.social, log: services.logger },
    // An api_check task asks the project's server; loopback only in the local trial.
    apiCheck: { tokenKey: services.env.social.tokenKey, allowLoopback: !services.env.isPublic },
    gateCheck: gateEntryCheck({ db: services.database.db, chains: services.chains }),
  });
  if (!outcome.ok) return formFailure(outcome, { ok: false as const, value: outcome.value, retryAfterSeconds: outcome.retryAfterSeconds });
  return data(outcome);
}

export default function TaskShow({ loaderData }: Route.ComponentProps) {
  const { task, project, brief, campaign, crusade, airdrop, state, found, onchain, social, block, signedIn, team, gate } = loaderData;
  const outcome = useActionData<typeof action>();
  const location = useLocation();

  useEffect(() => {
    if (outcome?.ok && outcome.status === "approved") toast.success(`+${outcome.xpAwarded.toLocaleString("en")} XP`, { description: task.title });
    if (outcome?.ok && outcome.status === "pending") toast.success("Submitted for review", { description: "The team will look at it soon." });
  }, [outcome, task.title]);

  const canAct = !block && (!state || state.status === "rejected");
  return (
    <>
      <PageHeader
        title={task.title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Link to={route("projects.show", { project: project.slug })} className="font-medium text-foreground underline-offset-4 hover:underline">
              {project.name}
            </Link>
            {!task.publishedAt && <Badge variant="secondary">Draft</Badge>}
          </span>
        }
        actions={
          (team.edit || team.leaderboard) && (
            <div className="flex flex-wrap gap-2">
              {team.leaderboard && (
                <Button asChild variant="outline">
                  <Link to={route("tasks.leaderboard", { task: task.id })}>
                    <Trophy aria-hidden /> Leaderboard
                  </Link>
                </Button>
              )}
              {team.edit && (
                <Button asChild>
                  <Link to={route("tasks.edit", { task: task.id })}>
                    <Pencil aria-hidden /> Edit
                  </Link>
                </Button>
              )}
            </div>
          )
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>What to do</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            {task.description && <p className="whitespace-pre-line text-muted-foreground wrap-anywhere">{task.description}</p>}
            <TaskInstructions brief={brief} signedIn={signedIn} />
            {task.verification === "review" && (
              <p className="text-sm text-muted-foreground">The team reviews each submission; the XP arrives when it is approved.</p>
            )}
            {state && (
              <MemberStateNotice
                state={state}
                daily={task.recurrence === "daily"}
                xp={task.xp}
                found={found && social ? { evidence: found, provider: PROVIDER_LABELS[social.provider] } : null}
                chain={onchain?.evidence ?? null}
                retry={canAct}
              />
            )}
            {block && (!state || state.status === "rejected") && <BlockNotice block={block} />}
            {canAct &&
              (!signedIn ? (
                <AuthCard redirectTo={location.pathname} />
              ) : onchain && onchain.linkedWallets === 0 ? (
                <LinkWalletFirst />
              ) : social?.state === "not_connected" || social?.state === "needs_reconnect" ? (
                <ConnectCard provider={social.provider} reconnect={social.state === "needs_reconnect" ? social : null} />
              ) : (
                <TaskAction brief={brief} failure={outcome && !outcome.ok ? outcome : undefined} retry={state?.status === "rejected"} />
              ))}
          </CardContent>
        </Card>
        <div className="grid content-start gap-4">
          <TaskDetails task={task} project={project} campaign={campaign} crusade={crusade} airdrop={airdrop} />
          {gate && <GatePanel gate={gate} what={gate.what} />}
        </div>
      </div>
    </>
  );
}
