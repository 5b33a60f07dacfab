import { data, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/accept";
import { type AnswerActionData } from "~/components/projects/invitations-card";
import { InviteAnswer } from "~/components/projects/invite-answer";
import { pageTitle } from "~/lib/meta";
import { formFailure, invalid } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession, requireUser } from "~/modules/auth/session.server";
import { dataWithToast, redirectWithToast } from "~/lib/flash.server";
import { answerInvite, inviteByToken, inviteState } from "~/modules/projects/invites.server";
import { projectBySlug } from "~/modules/projects/projects.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const page = loaderData?.invitation ? `Join ${loaderData.invitation.project.name}` : "Invitation";
  return [{ title: pageTitle(matches[0].loaderData.appName, page) }, { name: "robots", content: "noindex" }];
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const session = await getSession(context);
  const found = await inviteByToken({ db, token: params.token });
  const here = new URL(request.url).pathname;
  const signIn = `${route("login")}?redirectTo=${encodeURIComponent(here)}`;
  if (!found) return data({ invitation: null, signedIn: session !== null, signIn }, { status: 404 });
  const { invite, project } = found;
  return {
    invitation: {
      id: invite.id,
      role: invite.role,
      state: inviteState(invite),
      sentTo: invite.email ?? invite.walletAddress ?? "",
      expiresAt: invite.expiresAt,
      project: { slug: project.slug, name: project.name, logoUrl: project.logoUrl, description: project.description },
    },
    signedIn: session !== null,
    signIn,
  };
}

const answerSchema = z.object({ intent: z.enum(["accept", "decline"]), inviteId: z.string().min(1).max(64) });

/**
 * Accepts or declines the invite named in the form. The Invitations card posts here by invite id
 * (wallet invites have no mailed token); `answerInvite` checks the invite is addressed to the
 * signed-in member either way.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, env } = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = answerSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(invalid("form", "Choose Accept or Decline."), { ok: false as const });
  const accept = form.data.intent === "accept";
  const result = await answerInvite({ db: database.db, inviteId: form.data.inviteId, userId: user.id, accept });
  if (!result.ok) return formFailure(result, { ok: false as const });
  const project = await projectBySlug({ db: database.db, slug: result.projectSlug });
  // A declined invitation's card leaves the list as the page's data reloads: the root says it.
  if (!accept) return dataWithToast<AnswerActionData>({ ok: true }, `Invitation to ${project?.name ?? "the project"} declined`, { appUrl: env.APP_URL });
  throw redirectWithToast(route("projects.show", { project: result.projectSlug }), `You joined the team of ${project?.name ?? "this project"}`, {
    appUrl: env.APP_URL,
  });
}

export default function AcceptInvite({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<AnswerActionData>();
  return <InviteAnswer {...loaderData} actionData={actionData} />;
}
