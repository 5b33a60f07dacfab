import { ShieldCheck } from "lucide-react";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import type { TargetOption } from "./team-exclusion-forms";
import { TeamMemberCard, type TeamMemberData } from "./team-member";
import type { TrustFilter } from "./team-trust-tabs";

const EMPTY: Record<TrustFilter, { title: string; body: string }> = {
  flagged: { title: "No participants flagged", body: "The trust job scores members every few minutes; flagged participants appear here." },
  all: { title: "No participants yet", body: "Members appear here once they complete one of the project's tasks." },
  excluded: { title: "No one is excluded", body: "Members you exclude from the project, a pool or an airdrop appear here until you lift it." },
};

/** One page of the project's participants: flagged first, then the lowest score. */
export function TeamParticipants({
  list,
  filter,
  projectSlug,
  canAct,
  targets,
}: {
  list: { rows: TeamMemberData[]; total: number; page: number; pageCount: number; hasMore: boolean };
  filter: TrustFilter;
  projectSlug: string;
  canAct: boolean;
  targets: TargetOption[];
}) {
  if (list.rows.length === 0)
    return (
      <EmptyState icon={ShieldCheck} title={list.page > 1 ? "No more participants" : EMPTY[filter].title}>
        {EMPTY[filter].body}
      </EmptyState>
    );
  return (
    <section aria-label="Participants" className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        {list.total.toLocaleString("en")} {list.total === 1 ? "participant" : "participants"}
      </p>
      <ul className="grid gap-3">
        {list.rows.map((m) => (
          <TeamMemberCard key={m.userId} member={m} projectSlug={projectSlug} canAct={canAct} targets={targets} />
        ))}
      </ul>
      <Pagination page={list.page} hasMore={list.hasMore} pageCount={list.pageCount} />
    </section>
  );
}
