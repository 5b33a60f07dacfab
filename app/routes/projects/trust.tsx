import { z } from "zod";
import type { Route } from "./+types/trust";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { pageParam } from "~/components/pagination";
import { PageHeader } from "~/components/page-header";
import { ClusterList } from "~/components/trust/cluster-list";
import { TeamAuditLog } from "~/components/trust/team-audit-log";
import { TeamParticipants } from "~/components/trust/team-participants";
import { TeamTrustTabs } from "~/components/trust/team-trust-tabs";
import { dataWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { requireUser } from "~/modules/auth/session.server";
import { authorize, can } from "~/modules/projects/permissions.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import { teamTrustAction } from "~/modules/trust/team-trust-actions.server";
import { exclusionTargets, PARTICIPANT_FILTERS, projectClusters, projectParticipants, projectTrustAudit } from "~/modules/trust/team-trust.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Trust · ${loaderData.project.name}` : "Trust") }];
}

const viewSchema = z.object({
  tab: z.enum(["participants", "clusters", "audit"]).catch("participants"),
  filter: z.enum(PARTICIPANT_FILTERS).catch("flagged"),
});

/** The project's trust screen, for its owners, admins and reviewers: participants' scores and reasons, clusters, the audit log. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const { project } = await projectPage({ db, slug: params.project, userId: user.id });
  const role = await authorize({ db, projectId: project.id, userId: user.id, action: "trust.view" });
  const url = new URL(request.url);
  const { tab, filter } = viewSchema.parse(Object.fromEntries(url.searchParams));
  const page = pageParam(url);
  const targets = await exclusionTargets({ db, projectId: project.id });
  const canAct = can(role, "trust.act");
  return {
    project: { slug: project.slug, name: project.name },
    tab,
    filter,
    canAct,
    targets: canAct ? targets.open : [],
    participants: tab === "participants" ? await projectParticipants({ db, projectId: project.id, filter, page, targets }) : null,
    clusters: tab === "clusters" ? await projectClusters({ db, projectId: project.id }) : null,
    audit: tab === "audit" ? await projectTrustAudit({ db, projectId: project.id, page, targets }) : null,
  };
}

/** Exclude a participant or a cluster's participants, or lift an exclusion: owners and admins only. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { project } = await projectPage({ db, slug: params.project, userId: user.id });
  await authorize({ db, projectId: project.id, userId: user.id, action: "trust.act" });
  const done = await teamTrustAction({ db, projectId: project.id, actorId: user.id, formData: await request.formData() });
  if (!done.ok) return formFailure(done);
  return dataWithToast({ ok: true }, done.message, { appUrl: services.env.APP_URL });
}

export default function ProjectTrust({ loaderData }: Route.ComponentProps) {
  const { project, tab, filter, canAct, targets, participants, clusters, audit } = loaderData;
  return (
    <>
      <ProjectCrumb project={project} trail={[]} />
      <PageHeader
        title="Trust"
        description={
          canAct
            ? `The trust score of ${project.name}'s participants with its reasons, the clusters they sit in, and who you kept out and why.`
            : `The trust score of ${project.name}'s participants with its reasons, and the clusters they sit in. Owners and admins decide exclusions.`
        }
      />
      <TeamTrustTabs tab={tab} filter={filter} />
      {participants && <TeamParticipants list={participants} filter={filter} projectSlug={project.slug} canAct={canAct} targets={targets} />}
      {clusters && <ClusterList clusters={clusters} projectSlug={project.slug} />}
      {audit && <TeamAuditLog log={audit} projectSlug={project.slug} />}
    </>
  );
}
