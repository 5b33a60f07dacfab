import { data } from "react-router";
import type { Route } from "./+types/trust-cluster";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ClusterEvidence } from "~/components/trust/cluster-evidence";
import { CLUSTER_KIND_LABELS } from "~/components/trust/cluster-list";
import { ClusterMembers } from "~/components/trust/cluster-members";
import { ExcludeForm } from "~/components/trust/team-exclusion-forms";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { QUEST_DECIMALS } from "~/modules/ledger/assets";
import { authorize, can } from "~/modules/projects/permissions.server";
import { rewardDecimals } from "~/modules/projects/set-reward-asset.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";
import { clusterView } from "~/modules/trust/team-trust.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Cluster · Trust · ${loaderData.project.name}` : "Cluster") }];
}

/** One cluster for the project's team: its shared evidence, and its members who take part here (the others only as a number). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { project } = await projectPage({ db, slug: params.project, userId: user.id });
  const role = await authorize({ db, projectId: project.id, userId: user.id, action: "trust.view" });
  const view = await clusterView({
    db,
    projectId: project.id,
    clusterId: params.cluster,
    decimalsOf: (asset) => rewardDecimals(services.chains, asset) ?? QUEST_DECIMALS,
  });
  if (!view) throw data("Not found", { status: 404 });
  const canAct = can(role, "trust.act");
  return { project: { slug: project.slug, name: project.name }, canAct, ...view, targets: canAct ? view.targets : [] };
}

export default function TrustCluster({ loaderData }: Route.ComponentProps) {
  const { project, canAct, cluster, members, here, outside, targets } = loaderData;
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Trust", to: route("projects.trust", { project: project.slug }) + "?tab=clusters" }]} />
      <PageHeader
        title={cluster.summary}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{CLUSTER_KIND_LABELS[cluster.kind]}</Badge>
            {here} {here === 1 ? "member takes" : "members take"} part in {project.name}
            {outside > 0 && ` · and ${outside.toLocaleString("en")} ${outside === 1 ? "member" : "members"} outside this project`}
          </span>
        }
      />
      <div className="grid min-w-0 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Shared evidence</CardTitle>
            <CardDescription>What the trust job found these members share.</CardDescription>
          </CardHeader>
          <CardContent className="min-w-0">
            <ClusterEvidence evidence={cluster.evidence} />
          </CardContent>
        </Card>
        {canAct && <ExcludeForm projectSlug={project.slug} targets={targets} subject={{ kind: "cluster", clusterId: cluster.id, count: here }} />}
        <section className="grid gap-3" aria-label="Members">
          <h2 className="text-lg font-semibold">Members taking part here</h2>
          <ClusterMembers members={members} projectSlug={project.slug} canAct={canAct} targets={targets} />
          {here > members.length && (
            <p className="text-sm text-muted-foreground">
              The {members.length} flagged first and lowest scored are shown; {here - members.length} more take part here.
            </p>
          )}
        </section>
      </div>
    </>
  );
}
