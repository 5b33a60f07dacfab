import { Trophy } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import { UserAvatar } from "~/components/ui/avatar";
import { cn } from "~/lib/utils";

export type LeaderboardRow = { rank: number; userId: string; score: number; name: string; image: string | null };
export type LeaderboardData = {
  rows: LeaderboardRow[];
  mine: { rank: number; score: number } | null;
  around: LeaderboardRow[];
  page: number;
  hasMore: boolean;
};

const WINDOWS = [
  { value: "all", label: "All time" },
  { value: "30d", label: "30 days" },
  { value: "7d", label: "7 days" },
] as const;

/** The window switcher: links that keep the page's other parameters. */
export function WindowTabs({ current }: { current: string }) {
  const location = useLocation();
  return (
    <nav aria-label="Time window" className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {WINDOWS.map((w) => {
        const params = new URLSearchParams(location.search);
        params.set("window", w.value);
        params.delete("page");
        return (
          <Link
            key={w.value}
            to={`${location.pathname}?${params}`}
            aria-current={current === w.value ? "page" : undefined}
            className={cn("rounded-md px-3 py-1.5 text-sm", current === w.value ? "bg-background shadow-xs" : "text-muted-foreground hover:text-foreground")}
          >
            {w.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** One ranked member: rank, avatar, name (marked when it is the viewer) and what they are ranked by. */
export function RankRow({ rank, name, image, me, children }: { rank: number; name: string; image: string | null; me: boolean; children: ReactNode }) {
  return (
    <li className={cn("flex items-center gap-3 px-4 py-2.5", me && "bg-brand/15")} aria-current={me ? "true" : undefined}>
      <span className="w-10 shrink-0 text-right font-mono text-sm tabular-nums text-muted-foreground">#{rank}</span>
      <UserAvatar name={name} image={image} />
      <div className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-3">
        <span className="truncate font-medium sm:flex-1">
          {name}
          {me && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
        </span>
        {children}
      </div>
    </li>
  );
}

function Row({ row, me, unit }: { row: LeaderboardRow; me: boolean; unit: string }) {
  return (
    <RankRow rank={row.rank} name={row.name} image={row.image} me={me}>
      <span className="font-mono text-sm tabular-nums">
        {row.score.toLocaleString("en")} {unit}
      </span>
    </RankRow>
  );
}

/**
 * A board: a page of ranked members; the signed-in member's own rank and neighbours below it
 * when they are not on the page (also when they opted out of public boards).
 */
export function LeaderboardTable({ data, userId, unit = "XP" }: { data: LeaderboardData; userId: string | null; unit?: string }) {
  if (data.rows.length === 0 && !data.mine) {
    return (
      <EmptyState icon={Trophy} title="No one on this board yet">
        Complete a task to be the first.
      </EmptyState>
    );
  }
  const meOnPage = data.rows.some((r) => r.userId === userId);
  return (
    <div className="grid gap-4">
      <ol className="divide-y rounded-xl border" aria-label="Leaderboard">
        {data.rows.map((row) => (
          <Row key={row.userId} row={row} me={row.userId === userId} unit={unit} />
        ))}
      </ol>
      {data.mine && !meOnPage && (
        <section aria-label="Your rank" className="grid gap-2">
          <h3 className="text-sm font-medium text-muted-foreground">
            Your rank: #{data.mine.rank} with {data.mine.score.toLocaleString("en")} {unit}
          </h3>
          <ol className="divide-y rounded-xl border">
            {data.around.map((row) => (
              <Row key={row.userId} row={row} me={row.userId === userId} unit={unit} />
            ))}
          </ol>
        </section>
      )}
      <Pagination page={data.page} hasMore={data.hasMore} />
    </div>
  );
}
