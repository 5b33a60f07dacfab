import { ArrowRight, Flag, Route as RouteIcon, Trophy, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { UserAvatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";
import { formatDate } from "./roles";

type CampaignStatus = "draft" | "scheduled" | "live" | "ended";
export type CampaignItem = { id: string; slug: string; name: string; status: CampaignStatus; startsAt: Date | string; endsAt: Date | string; tasks: number };
export type CrusadeItem = { id: string; slug: string; name: string; publishedAt: Date | string | null; bonusXp: number; total: number; done: number };
export type MemberRow = { rank: number; userId: string; score: number; name: string; image: string | null };

const STATUS_BADGE: Record<CampaignStatus, { label: string; variant: "success" | "warning" | "secondary" | "outline" }> = {
  live: { label: "Live", variant: "success" },
  scheduled: { label: "Scheduled", variant: "warning" },
  draft: { label: "Draft", variant: "outline" },
  ended: { label: "Ended", variant: "secondary" },
};

/** A titled block of the overview, with a "see all" link. */
export function Section({ title, more, children }: { title: string; more?: { to: string; label: string }; children: ReactNode }) {
  return (
    <section className="grid gap-3" aria-label={title}>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {more && (
          <Button asChild variant="ghost" size="sm">
            <Link to={more.to}>
              {more.label} <ArrowRight aria-hidden />
            </Link>
          </Button>
        )}
      </div>
      {children}
    </section>
  );
}

/** One container in a compact list: its name linked to its page, its state, a line of facts. */
export type CompactItem = { id: string; to: string; name: string; badge: ReactNode; line: ReactNode };

/** Containers (campaigns, airdrops) in a compact two-column list, or an empty state. */
export function CompactList({ items, empty, icon }: { items: CompactItem[]; empty: string; icon: LucideIcon }) {
  if (items.length === 0) return <EmptyState icon={icon} title={empty} />;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {items.map((c) => (
        <li key={c.id} className="relative grid gap-2 rounded-xl border bg-card p-4 shadow-sm hover:border-foreground/20">
          <div className="flex items-start justify-between gap-2">
            <Link to={c.to} className="min-w-0 font-medium wrap-anywhere outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline">
              {c.name}
            </Link>
            {c.badge}
          </div>
          <p className="text-xs text-muted-foreground">{c.line}</p>
        </li>
      ))}
    </ul>
  );
}

export function CampaignList({ projectSlug, campaigns, empty }: { projectSlug: string; campaigns: CampaignItem[]; empty: string }) {
  return (
    <CompactList
      icon={Flag}
      empty={empty}
      items={campaigns.map((c) => ({
        id: c.id,
        to: route("campaigns.show", { project: projectSlug, campaign: c }),
        name: c.name,
        badge: <Badge variant={STATUS_BADGE[c.status].variant}>{STATUS_BADGE[c.status].label}</Badge>,
        line: `${formatDate(c.startsAt)} – ${formatDate(c.endsAt)} · ${c.tasks} ${c.tasks === 1 ? "task" : "tasks"}`,
      }))}
    />
  );
}

export function CrusadeList({ projectSlug, crusades, signedIn }: { projectSlug: string; crusades: CrusadeItem[]; signedIn: boolean }) {
  if (crusades.length === 0) return <EmptyState icon={RouteIcon} title="No crusades yet" />;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {crusades.map((c) => {
        const percent = c.total > 0 ? Math.round((c.done / c.total) * 100) : 0;
        return (
          <li key={c.id} className="relative grid gap-3 rounded-xl border bg-card p-4 shadow-sm hover:border-foreground/20">
            <div className="flex items-start justify-between gap-2">
              <Link
                to={route("crusades.show", { project: projectSlug, crusade: c })}
                className="min-w-0 font-medium wrap-anywhere outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
              >
                {c.name}
              </Link>
              {!c.publishedAt && <Badge variant="outline">Draft</Badge>}
            </div>
            <div className="grid gap-1.5">
              {signedIn && (
                <div
                  className="h-2 overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-label={`${c.name} progress`}
                  aria-valuemin={0}
                  aria-valuemax={c.total}
                  aria-valuenow={c.done}
                >
                  <div className="h-full rounded-full bg-brand" style={{ width: `${percent}%` }} />
                </div>
              )}
              <p className="text-xs text-muted-foreground">
                {signedIn ? `${c.done} of ${c.total} steps done` : `${c.total} ${c.total === 1 ? "step" : "steps"}`}
                {c.bonusXp > 0 && ` · ${c.bonusXp.toLocaleString("en")} XP bonus`}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function TopMembers({ rows, userId }: { rows: MemberRow[]; userId: string | null }) {
  if (rows.length === 0) {
    return (
      <EmptyState icon={Trophy} title="No one has earned XP here yet">
        Complete one of the project's tasks to lead its board.
      </EmptyState>
    );
  }
  return (
    <ol className="divide-y rounded-xl border bg-card" aria-label="Top members">
      {rows.map((row) => (
        <li key={row.userId} className="flex items-center gap-3 px-4 py-2.5" aria-current={row.userId === userId ? "true" : undefined}>
          <span className="w-8 shrink-0 text-right font-mono text-sm text-muted-foreground tabular-nums">#{row.rank}</span>
          <UserAvatar name={row.name} image={row.image} />
          <span className="min-w-0 flex-1 truncate font-medium">
            {row.name}
            {row.userId === userId && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
          </span>
          <span className="font-mono text-sm tabular-nums">{row.score.toLocaleString("en")} XP</span>
        </li>
      ))}
    </ol>
  );
}
