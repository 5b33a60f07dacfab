import { ScrollText } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { formatUtc } from "~/components/leaderboards/format";
import { Pagination } from "~/components/pagination";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import type { TrustAuditAction } from "~/modules/trust/trust-types";

const ACTION_LABELS: Record<TrustAuditAction, { label: string; variant: "destructive" | "success" | "warning" | "secondary" }> = {
  exclude: { label: "Excluded", variant: "destructive" },
  lift: { label: "Lifted", variant: "success" },
  appeal: { label: "Appealed", variant: "warning" },
  appeal_upheld: { label: "Appeal upheld", variant: "success" },
  appeal_denied: { label: "Appeal denied", variant: "secondary" },
};

export type AuditItem = {
  id: string;
  action: TrustAuditAction;
  actor: string | null;
  subject: string | null;
  clusterId: string | null;
  target: string | null;
  reason: string;
  createdAt: Date | string;
};

/** Who did what to whom in the project's sybil defence, and why: newest first. */
export function TeamAuditLog({ log, projectSlug }: { log: { rows: AuditItem[]; page: number; pageCount: number; hasMore: boolean }; projectSlug: string }) {
  if (log.rows.length === 0)
    return (
      <EmptyState icon={ScrollText} title={log.page > 1 ? "No older entries" : "Nothing in the audit log yet"}>
        Every exclusion, lift and appeal is written here with who did it and why.
      </EmptyState>
    );
  return (
    <section aria-label="Audit log" className="grid gap-3">
      <ol className="divide-y rounded-xl border bg-card">
        {log.rows.map((r) => (
          <li key={r.id} className="grid gap-1 px-4 py-3 text-sm">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Badge variant={ACTION_LABELS[r.action].variant}>{ACTION_LABELS[r.action].label}</Badge>
              <span className="font-medium wrap-anywhere">{r.subject ?? "A member"}</span>
              {r.target && <span className="text-muted-foreground">· {r.target === "The whole project" ? "the whole project" : r.target}</span>}
              {r.clusterId && (
                <Link
                  to={route("projects.trust.cluster", { project: projectSlug, cluster: r.clusterId })}
                  className="rounded-sm text-xs underline underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  cluster
                </Link>
              )}
            </p>
            <p className="wrap-anywhere">“{r.reason}”</p>
            <p className="text-xs text-muted-foreground">
              {r.actor ? `by ${r.actor}` : "by a former member"} · <time dateTime={new Date(r.createdAt).toISOString()}>{formatUtc(r.createdAt)}</time>
            </p>
          </li>
        ))}
      </ol>
      <Pagination page={log.page} hasMore={log.hasMore} pageCount={log.pageCount} />
    </section>
  );
}
