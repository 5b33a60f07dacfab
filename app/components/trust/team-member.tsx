import { ArrowRight, Ban } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDate } from "~/components/projects/roles";
import { UserAvatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import type { TrustReason } from "~/modules/trust/trust-types";
import { shortAddress } from "~/wallet/chains";
import { ExcludeForm, LiftForm, type TargetOption } from "./team-exclusion-forms";

/** What a team sees of one participant (team-trust.server.ts `TeamMember`, as the page receives it). */
export type TeamMemberData = {
  userId: string;
  name: string;
  username: string | null;
  image: string | null;
  email: string | null;
  wallets: string[];
  socials: { provider: string; handle: string }[];
  score: number | null;
  flagged: boolean;
  reasons: TrustReason[];
  exclusions: { id: string; target: string; reason: string; createdAt: Date | string }[];
};

/** The score out of 100, flagged or not; "Not scored yet" until the trust job has read the member. */
export function TeamScore({ score, flagged }: { score: number | null; flagged: boolean }) {
  if (score === null) return <Badge variant="outline">Not scored yet</Badge>;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge variant={flagged ? "destructive" : "secondary"} className="tabular-nums">
        <span className="sr-only">Trust score </span>
        {score}/100
      </Badge>
      {flagged && <Badge variant="destructive">Flagged</Badge>}
    </span>
  );
}

/** A score's reasons in the words the scoring stored, with the points each moved and a link to its cluster. */
export function TeamReasons({ reasons, projectSlug }: { reasons: TrustReason[]; projectSlug: string }) {
  if (reasons.length === 0) return <p className="text-sm text-muted-foreground">No reasons recorded.</p>;
  return (
    <ul className="grid gap-1.5 text-sm" aria-label="Reasons">
      {reasons.map((r, i) => (
        <li key={`${r.code}-${i}`} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className={`w-10 shrink-0 font-mono text-xs tabular-nums ${r.points < 0 ? "text-destructive" : "text-green-700 dark:text-green-400"}`}>
            {r.points > 0 ? `+${r.points}` : r.points}
          </span>
          <span className="min-w-0 flex-1 wrap-anywhere">{r.words}</span>
          {r.clusterId && (
            <Link
              to={route("projects.trust.cluster", { project: projectSlug, cluster: r.clusterId })}
              className="inline-flex items-center gap-1 rounded-sm text-xs font-medium underline underline-offset-4 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              See the cluster <ArrowRight className="size-3" aria-hidden />
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Name, handle, e-mail (where shared), wallets and social handles: what the team may see of the member. */
export function TeamMemberIdentity({ member, aside }: { member: TeamMemberData; aside?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start gap-3">
      <UserAvatar name={member.name} image={member.image} />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="font-medium wrap-anywhere">
          {member.name}
          {member.username && <span className="ml-2 text-sm font-normal text-muted-foreground">@{member.username}</span>}
        </p>
        <p className="text-xs text-muted-foreground wrap-anywhere">
          {[member.email, ...member.wallets.map((w) => shortAddress(w)), ...member.socials.map((s) => `${s.provider}: ${s.handle}`)]
            .filter(Boolean)
            .join(" · ") || "No e-mail shared, no wallet or account linked"}
        </p>
      </div>
      {aside}
    </div>
  );
}

/** The member's live exclusions in this project, each with its reason and, for those who may act, Lift. */
export function TeamExclusions({ exclusions, projectSlug, canAct }: { exclusions: TeamMemberData["exclusions"]; projectSlug: string; canAct: boolean }) {
  if (exclusions.length === 0) return null;
  return (
    <ul className="grid gap-2" aria-label="Exclusions">
      {exclusions.map((x) => (
        <li key={x.id} className="grid gap-1 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
          <p className="flex flex-wrap items-center gap-x-2">
            <Ban className="size-3.5 text-destructive" aria-hidden />
            <span className="font-medium">Excluded from {x.target === "The whole project" ? "the whole project" : x.target}</span>
            <span className="text-xs text-muted-foreground">since {formatDate(x.createdAt)}</span>
          </p>
          <p className="text-muted-foreground wrap-anywhere">“{x.reason}”</p>
          {canAct && <LiftForm projectSlug={projectSlug} exclusionId={x.id} target={x.target} />}
        </li>
      ))}
    </ul>
  );
}

/** One participant as a card: identity, score, reasons, exclusions and, for those who may act, Exclude. */
export function TeamMemberCard({
  member,
  projectSlug,
  canAct,
  targets,
  children,
}: {
  member: TeamMemberData;
  projectSlug: string;
  canAct: boolean;
  targets: TargetOption[];
  children?: ReactNode;
}) {
  return (
    <li className="grid min-w-0 gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <TeamMemberIdentity member={member} aside={<TeamScore score={member.score} flagged={member.flagged} />} />
      <TeamReasons reasons={member.reasons} projectSlug={projectSlug} />
      {children}
      <TeamExclusions exclusions={member.exclusions} projectSlug={projectSlug} canAct={canAct} />
      {canAct && <ExcludeForm projectSlug={projectSlug} targets={targets} subject={{ kind: "member", userId: member.userId, name: member.name }} />}
    </li>
  );
}
