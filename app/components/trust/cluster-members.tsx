import { formatUtc } from "~/components/leaderboards/format";
import type { TargetOption } from "./team-exclusion-forms";
import { TeamMemberCard, type TeamMemberData } from "./team-member";

export type ClusterMemberData = TeamMemberData & {
  completions: { count: number; approved: number; first: Date | string; last: Date | string; tasks: { id: string; title: string; count: number }[] };
  stake: string[];
};

/** What one member did here: completions, the tasks, the first and the last. */
function Completions({ completions }: { completions: ClusterMemberData["completions"] }) {
  const { count, approved, first, last, tasks } = completions;
  return (
    <div className="grid gap-1 text-sm">
      <h3 className="font-medium">Completions here</h3>
      <p className="text-muted-foreground">
        {count} {count === 1 ? "completion" : "completions"} ({approved} approved) · first {formatUtc(first)} · last {formatUtc(last)}
      </p>
      <p className="wrap-anywhere">{tasks.map((t) => (t.count > 1 ? `${t.title} (×${t.count})` : t.title)).join(" · ")}</p>
    </div>
  );
}

/** Where the member stands in the project's unpaid rewards, in words: a reading of now, not the payout. */
function Stake({ stake }: { stake: string[] }) {
  return (
    <div className="grid gap-1 text-sm">
      <h3 className="font-medium">About to be paid (estimate, as of now)</h3>
      {stake.length === 0 ? (
        <p className="text-muted-foreground">Nothing in the project's open pools or unclaimed airdrops.</p>
      ) : (
        <ul className="grid list-disc gap-0.5 pl-5">
          {stake.map((s) => (
            <li key={s} className="wrap-anywhere">
              {s}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The cluster's members who take part in this project, each with what they did here and what they stand to be paid. */
export function ClusterMembers({
  members,
  projectSlug,
  canAct,
  targets,
}: {
  members: ClusterMemberData[];
  projectSlug: string;
  canAct: boolean;
  targets: TargetOption[];
}) {
  return (
    <ul className="grid gap-3" aria-label="Members taking part here">
      {members.map((m) => (
        <TeamMemberCard key={m.userId} member={m} projectSlug={projectSlug} canAct={canAct} targets={targets}>
          <div className="grid gap-3 rounded-lg bg-muted/50 p-3 sm:grid-cols-2">
            <Completions completions={m.completions} />
            <Stake stake={m.stake} />
          </div>
        </TeamMemberCard>
      ))}
    </ul>
  );
}
