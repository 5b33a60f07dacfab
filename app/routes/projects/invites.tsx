import { BackToProject } from "~/components/projects/back-to-project";
import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/invites";
import { PageHeader } from "~/components/page-header";
import { InviteForm } from "~/components/projects/invite-form";
import { InviteList } from "~/components/projects/invite-list";
import type { TeamActionData } from "~/components/projects/team-actions";
import { TeamList } from "~/components/projects/team-list";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext, type Services } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { redirectWithToast } from "~/lib/flash.server";
import { inviteState, listProjectInvites, revokeInvite } from "~/modules/projects/invites.server";
import { authorize, can, canGrant, ROLES, type ProjectAction } from "~/modules/projects/permissions.server";
import { inviteSchema } from "~/modules/projects/project.schema";
import { changeTeamRole, listTeam, projectBySlug } from "~/modules/projects/projects.server";
import { resendAndMail, sendInvite } from "~/modules/projects/send-invite.server";
import { resendWaits } from "~/modules/projects/send-limits.server";
import { hasRealEmail } from "~/modules/wallets/wallets.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Team - ${loaderData.project.name}` : "Team & invites") }];
}

async function projectFor(services: Services, slug: string) {
  const project = await projectBySlug({ db: services.database.db, slug });
  if (!project) throw data("Not found", { status: 404 });
  return project;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { user } = await requireUser(context, request);
  const project = await projectFor(services, params.project);
  const role = await authorize({ db, projectId: project.id, userId: user.id, action: "team.view" });
  const [team, invites] = await Promise.all([
    listTeam({ db, projectId: project.id }),
    can(role, "team.invite") ? listProjectInvites({ db, projectId: project.id }) : Promise.resolve([]),
  ]);
  const now = new Date();
  const waits = await resendWaits({ db, limits: services.env, inviteIds: invites.map((i) => i.id), now: now.getTime() });
  return {
    project: { slug: project.slug, name: project.name },
    me: user.id,
    role,
    grantable: ROLES.filter((r) => canGrant(role, r)),
    canManage: can(role, "team.manage"),
    team: team.map((m) => ({ ...m, email: can(role, "team.invite") && hasRealEmail(m.email) ? m.email : null })),
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      walletAddress: i.walletAddress,
      role: i.role,
      state: inviteState(i, now),
      expiresAt: i.expiresAt,
      createdAt: i.createdAt,
      resendInSeconds: waits.get(i.id) ?? 0,
    })),
  };
}

const rowSchema = z.object({ id: z.string().min(1).max(64) });
const roleSchema = rowSchema.extend({ role: z.enum(ROLES, { error: "Choose a role" }) });

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { env, database, mailer, logger } = services;
  const db = database.db;
  const { user } = await requireUser(context, request);
  const project = await projectFor(services, params.project);
  const allow = (action: ProjectAction) => authorize({ db, projectId: project.id, userId: user.id, action });
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const outbox = { db, mailer, logger, appName: env.APP_NAME, appUrl: env.APP_URL, limits: env };
  const sender = { project, inviterName: user.name || null };
  const reply = (body: TeamActionData, status = 200) => data<TeamActionData>(body, { status });
  const row = rowSchema.safeParse(Object.fromEntries(formData));

  if (intent === "invite") {
    const role = await allow("team.invite");
    const values = { target: String(formData.get("target") ?? ""), role: String(formData.get("role") ?? "") };
    const form = parseForm(inviteSchema, formData);
    if (!form.ok) return formFailure<TeamActionData>(form, { intent, ok: false, values });
    if (!canGrant(role, form.data.role)) return reply({ intent, ok: false, errors: { role: "Only owners can invite owners" }, values }, 400);
    const sent = await sendInvite(outbox, { ...sender, invitedBy: user.id, ...form.data });
    if ("refused" in sent) return reply({ intent, ok: false, errors: { target: sent.refused }, values }, 429);
    return reply({ intent, ok: true, to: form.data.email ?? form.data.walletAddress!, mailed: sent.mailed, url: sent.mailed ? null : sent.url });
  }
  if (!row.success) return reply({ intent, ok: false, errors: { form: "Choose a row first." } }, 400);
  const id = row.data.id;

  if (intent === "resend") {
    await allow("team.invite");
    const sent = await resendAndMail(outbox, { ...sender, inviteId: id, resentBy: user.id });
    if (sent && "refused" in sent) return reply({ intent, id, ok: false, errors: { form: sent.refused } }, 429);
    if (!sent) return reply({ intent, id, ok: false, errors: { form: "This invitation was answered or revoked: send a new one." } }, 400);
    return reply({ intent, id, ok: true, mailed: sent.mailed, url: sent.mailed ? null : sent.url });
  }
  if (intent === "revoke") {
    await allow("team.invite");
    const revoked = await revokeInvite({ db, projectId: project.id, inviteId: id });
    return revoked ? reply({ intent, id, ok: true }) : reply({ intent, id, ok: false, errors: { form: "This invitation was already accepted." } }, 400);
  }
  if (intent === "leave" || (intent === "remove" && id === user.id)) {
    await allow("team.view");
    const left = await changeTeamRole({ db, projectId: project.id, userId: user.id, role: null });
    if (!left.ok) return formFailure<TeamActionData>(left, { intent, id, ok: false });
    throw redirectWithToast(route("projects.show", { project }), `You left the team of ${project.name}`, { appUrl: env.APP_URL });
  }
  if (intent === "role" || intent === "remove") {
    await allow("team.manage");
    const change = roleSchema.safeParse(Object.fromEntries(formData));
    if (intent === "role" && !change.success) return reply({ intent, id, ok: false, errors: { form: "Choose a role." } }, 400);
    const newRole = intent === "role" && change.success ? change.data.role : null;
    const result = await changeTeamRole({ db, projectId: project.id, userId: id, role: newRole });
    return result.ok ? reply({ intent, id, ok: true }) : formFailure<TeamActionData>(result, { intent, id, ok: false });
  }
  return reply({ intent, ok: false, errors: { form: "Unknown action." } }, 400);
}

export default function TeamAndInvites({ loaderData }: Route.ComponentProps) {
  const { project, me, role, grantable, canManage, team, invites } = loaderData;
  return (
    <>
      <PageHeader title="Team & invites" description={`Who runs ${project.name}, and who is invited.`} actions={<BackToProject project={project} />} />
      <div className="grid gap-6">
        <TeamList members={team} me={me} canManage={canManage} />
        {grantable.length > 0 && <InviteForm roles={grantable} />}
        {grantable.length > 0 && <InviteList invites={invites} />}
        {role === "reviewer" && <p className="text-sm text-muted-foreground">Owners and admins invite new members.</p>}
      </div>
    </>
  );
}
