import { Network } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import type { ClusterKind } from "~/modules/trust/trust-types";

export const CLUSTER_KIND_LABELS: Record<ClusterKind, string> = {
  funder: "One funder",
  sweep: "One sweep address",
  network: "One network",
  synchronized: "Synchronized completions",
  same_answer: "Same answer",
  referral: "Referral ring",
};

export type ClusterItem = { id: string; kind: ClusterKind; summary: string; size: number; participants: number; excluded: number };

/** The clusters holding the project's participants: what they share, and how many of them take part here and are excluded. */
export function ClusterList({ clusters, projectSlug }: { clusters: ClusterItem[]; projectSlug: string }) {
  if (clusters.length === 0)
    return (
      <EmptyState icon={Network} title="No clusters among your participants">
        The trust job groups members who share a funder, a network, answers or timing every few minutes; such groups appear here.
      </EmptyState>
    );
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="Clusters">
      {clusters.map((c) => (
        <li key={c.id} className="relative grid gap-2 rounded-xl border bg-card p-4 shadow-sm hover:border-foreground/20">
          <Badge variant="outline" className="w-fit">
            {CLUSTER_KIND_LABELS[c.kind]}
          </Badge>
          <Link
            to={route("projects.trust.cluster", { project: projectSlug, cluster: c.id })}
            className="min-w-0 font-medium wrap-anywhere outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
          >
            {c.summary}
          </Link>
          <p className="text-xs text-muted-foreground">
            {c.participants} of {c.size} {c.size === 1 ? "member takes" : "members take"} part here · {c.excluded} excluded
          </p>
        </li>
      ))}
    </ul>
  );
}
