import { CalendarClock, CheckCircle2, Clock3, Flame, Repeat, Users } from "lucide-react";
import { Link } from "react-router";
import { UserAvatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import type { TaskType } from "~/modules/tasks/task-types";
import { CheckedBy } from "./checked-by";
import { placesLeft, placesText, RECURRENCE_LABELS, windowText } from "./task-format";

/** What a card shows of a task (never its settings: a quiz's answers stay on the server). */
export type TaskCardData = {
  id: string;
  title: string;
  type: TaskType;
  typeLabel: string;
  verification: "auto" | "review" | "none";
  xp: number;
  recurrence: "once" | "daily";
  cap: number | null;
  slotsTaken: number;
  startsAt: Date | null;
  endsAt: Date | null;
  publishedAt: Date | null;
  /** An on-chain task's network, by name (publicTask sets it). */
  network?: string | null;
};

export type MemberState = { status: "approved" | "pending" | "rejected"; reason: string | null } | null;

/** A task's facts in a row: type, XP, how it is checked, recurrence, places, window. */
export function TaskFacts({ task, now }: { task: TaskCardData; now: Date }) {
  const window = windowText(task, now);
  const left = placesLeft(task);
  return (
    <ul className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-muted-foreground">
      <li>
        <Badge variant="outline">{task.typeLabel}</Badge>
      </li>
      <li>
        <Badge variant="brand">{task.xp.toLocaleString("en")} XP</Badge>
      </li>
      <li>
        <CheckedBy task={task} />
      </li>
      <li className="flex items-center gap-1">
        <Repeat className="size-3.5" aria-hidden />
        {RECURRENCE_LABELS[task.recurrence]}
      </li>
      {left !== null && (
        <li className={left === 0 ? "flex items-center gap-1 text-destructive" : "flex items-center gap-1"}>
          <Users className="size-3.5" aria-hidden />
          {placesText(task)}
        </li>
      )}
      {window && (
        <li className="flex items-center gap-1">
          <CalendarClock className="size-3.5" aria-hidden />
          {window}
        </li>
      )}
    </ul>
  );
}

function StateBadge({ state, daily }: { state: NonNullable<MemberState>; daily: boolean }) {
  if (state.status === "approved")
    return (
      <Badge variant="success">
        <CheckCircle2 aria-hidden /> {daily ? "Done for today" : "Done"}
      </Badge>
    );
  if (state.status === "pending")
    return (
      <Badge variant="warning">
        <Clock3 aria-hidden /> Pending review
      </Badge>
    );
  return <Badge variant="destructive">Rejected</Badge>;
}

/** A task on an index: its project, title and facts; the whole card opens the task. */
export function TaskCard({
  task,
  project,
  recent,
  state = null,
  now,
}: {
  task: TaskCardData;
  project: { name: string; logoUrl: string | null };
  /** Completions in the last 24 hours (trending cards). */
  recent?: number;
  state?: MemberState;
  now: Date;
}) {
  return (
    <article className="relative flex h-full flex-col gap-3 rounded-xl border bg-card p-5 text-card-foreground shadow-sm transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:border-foreground/20">
      <div className="flex items-center justify-between gap-3">
        <span className="flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
          <UserAvatar name={project.name} image={project.logoUrl} className="size-6 rounded-md text-[10px]" />
          <span className="truncate">{project.name}</span>
        </span>
        {recent !== undefined && (
          <span className="flex shrink-0 items-center gap-1 text-xs font-medium tabular-nums" title="Completions in the last 24 hours">
            <Flame className={recent > 0 ? "size-3.5 text-orange-500" : "size-3.5 text-muted-foreground"} aria-hidden />
            {recent.toLocaleString("en")} <span className="sr-only sm:not-sr-only sm:text-muted-foreground">in 24 h</span>
          </span>
        )}
      </div>
      <h3 className="text-base leading-snug font-semibold wrap-anywhere">
        <Link to={route("tasks.show", { task: task.id })} className="outline-none after:absolute after:inset-0 after:content-['']">
          {task.title}
        </Link>
      </h3>
      <div className="mt-auto grid gap-3">
        <TaskFacts task={task} now={now} />
        {(state || !task.publishedAt) && (
          <div className="flex flex-wrap gap-2">
            {!task.publishedAt && <Badge variant="secondary">Draft</Badge>}
            {state && <StateBadge state={state} daily={task.recurrence === "daily"} />}
          </div>
        )}
      </div>
    </article>
  );
}
