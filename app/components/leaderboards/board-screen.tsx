import { ArrowLeft, EyeOff } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { LeaderboardTable, WindowTabs, type LeaderboardData } from "~/components/leaderboard-table";
import { PageHeader } from "~/components/page-header";
import { route } from "~/lib/routes";

/** A link back to what the board belongs to (a project, a campaign, a task). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden />
      {children}
    </Link>
  );
}

/** Tells an opted-out member that others do not see them, and where to change it. */
export function HiddenNotice() {
  return (
    <p className="flex items-start gap-2 rounded-lg border bg-muted/40 p-3 text-sm text-muted-foreground">
      <EyeOff className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        You are hidden from public leaderboards: other members do not see you, and your rank is the place you would have.{" "}
        <Link to={route("settings.leaderboard")} className="font-medium text-foreground underline underline-offset-4">
          Change this in Settings
        </Link>
      </span>
    </p>
  );
}

/** What a visitor or a member with no XP on this board reads above it. */
export function ViewerNote({
  signedIn,
  ranked,
  hasRows,
  unranked = "You have no XP on this board yet. Complete a task to join it.",
}: {
  signedIn: boolean;
  ranked: boolean;
  hasRows: boolean;
  unranked?: string;
}) {
  const location = useLocation();
  if (!signedIn) {
    return (
      <p className="text-sm text-muted-foreground">
        <Link
          to={`${route("login")}?redirectTo=${encodeURIComponent(location.pathname + location.search)}`}
          className="font-medium text-foreground underline underline-offset-4"
        >
          Sign in
        </Link>{" "}
        to see your own rank.
      </p>
    );
  }
  if (!ranked && hasRows) return <p className="text-sm text-muted-foreground">{unranked}</p>;
  return null;
}

/** A board screen: title, window tabs, notes for the viewer, then the ranked table. */
export function BoardScreen({
  title,
  description,
  back,
  window,
  board,
  userId,
  hidden,
  windows = true,
  unit,
  unranked,
}: {
  title: string;
  description: ReactNode;
  back?: { to: string; label: string };
  window: string;
  board: LeaderboardData;
  userId: string | null;
  hidden: boolean;
  /** False for a board kept for all time only (an airdrop's): no window tabs. */
  windows?: boolean;
  /** What the board ranks by ("XP" unless said). */
  unit?: string;
  unranked?: string;
}) {
  return (
    <>
      {back && <BackLink to={back.to}>{back.label}</BackLink>}
      <PageHeader title={title} description={description} actions={windows ? <WindowTabs current={window} /> : undefined} />
      <div className="grid gap-4">
        {hidden && <HiddenNotice />}
        <ViewerNote signedIn={userId !== null} ranked={board.mine !== null} hasRows={board.rows.length > 0} unranked={unranked} />
        <LeaderboardTable data={board} userId={userId} unit={unit} />
      </div>
    </>
  );
}
