import { Clock3, ListChecks, Lock, Plus, Repeat } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";
import type { TaskBlock } from "~/modules/tasks/task-page";
import { TASK_TYPE_LABELS } from "~/modules/tasks/task-types";
import type { TaskType } from "~/modules/tasks/task-types";
import { LocalTime } from "~/components/campaigns/local-time";
import { TaskStateBadge, TaskStateIcon, type MemberTaskState } from "~/components/campaigns/task-state";
import { CheckedBy } from "~/components/tasks/checked-by";
import { PROVIDER_LABELS } from "~/modules/social/providers";

export type ContainerTask = {
  id: string;
  title: string;
  type: TaskType;
  verification: "auto" | "review" | "none";
  xp: number;
  recurrence: "once" | "daily";
  published: boolean;
  state: MemberTaskState;
  /** What stops the member from doing it now (the task page's rules), null when they can. */
  block: TaskBlock | null;
};

/** Why a task cannot be done now, in words; null for a draft (its badge already says so). */
function blockText(block: TaskBlock): ReactNode {
  switch (block.kind) {
    case "campaign":
    case "airdrop": {
      const what = block.kind === "campaign" ? "Campaign" : "Airdrop";
      return block.status === "ended" ? `${what} ended` : block.status === "scheduled" ? `${what} not started` : `${what} not published`;
    }
    case "scheduled":
      return (
        <>
          Opens <LocalTime value={block.at} />
        </>
      );
    case "ended":
      return "Task ended";
    case "full":
      return "Every place taken";
    case "not_set_up":
      return `${PROVIDER_LABELS[block.provider]} is not set up on this server`;
    case "locked":
      return "Locked";
    case "draft":
      return null;
  }
}

/** In place of the Start button when the task cannot be done now. */
export function BlockLabel({ block }: { block: TaskBlock }) {
  const text = blockText(block);
  if (!text) return null;
  const Icon = block.kind === "full" || block.kind === "locked" || block.kind === "not_set_up" ? Lock : Clock3;
  return (
    <span className="inline-flex shrink-0 items-center gap-1.5 self-center text-xs font-medium text-muted-foreground">
      <Icon className="size-3.5" aria-hidden /> {text}
    </span>
  );
}

/** A campaign's or an airdrop's tasks with the member's standing on each, and the way to each task. */
export function ContainerTasks({ tasks, addTaskTo, noun }: { tasks: ContainerTask[]; addTaskTo: string | null; noun: "campaign" | "airdrop" }) {
  if (tasks.length === 0) {
    return (
      <EmptyState
        icon={ListChecks}
        title="No tasks yet"
        action={
          addTaskTo && (
            <Button asChild>
              <Link to={addTaskTo}>
                <Plus /> Add task
              </Link>
            </Button>
          )
        }
      >
        {addTaskTo ? `Add tasks to this ${noun}: choose it in the task form.` : `The team has not added tasks to this ${noun} yet.`}
      </EmptyState>
    );
  }
  return (
    <ul className="divide-y overflow-hidden rounded-xl border bg-card">
      {tasks.map((t) => (
        <li key={t.id} className="flex items-start gap-3 p-4 sm:items-center">
          <TaskStateIcon state={t.state} />
          <div className="grid min-w-0 flex-1 gap-1">
            <Link to={route("tasks.show", [t.id])} className="font-medium wrap-anywhere hover:underline">
              {t.title}
            </Link>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
              <span>{TASK_TYPE_LABELS[t.type]}</span>
              <span className="font-medium text-foreground tabular-nums">{t.xp.toLocaleString("en")} XP</span>
              <CheckedBy task={t} />
              {t.recurrence === "daily" && (
                <span className="inline-flex items-center gap-1">
                  <Repeat className="size-3" aria-hidden /> Daily
                </span>
              )}
              {!t.published && <Badge variant="outline">Draft</Badge>}
              <TaskStateBadge state={t.state} />
            </div>
            {t.state?.status === "rejected" && t.state.reason && <p className="text-xs text-destructive wrap-anywhere">Reason: {t.state.reason}</p>}
          </div>
          {t.block && t.state?.status !== "approved" && t.state?.status !== "pending" && <BlockLabel block={t.block} />}
          {t.published && !t.block && t.state?.status !== "approved" && t.state?.status !== "pending" && (
            <Button asChild size="sm" variant={t.state?.status === "rejected" ? "outline" : "brand"}>
              <Link to={route("tasks.show", [t.id])} aria-label={`${t.state?.status === "rejected" ? "Try again" : "Start"}: ${t.title}`}>
                {t.state?.status === "rejected" ? "Try again" : "Start"}
                {/* Which task, in the text too: search engines read a link's text, not its label. */}
                <span className="sr-only">: {t.title}</span>
              </Link>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
