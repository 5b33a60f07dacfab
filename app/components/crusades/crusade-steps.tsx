import { Check, Lock } from "lucide-react";
import { Link } from "react-router";
import { BlockLabel } from "~/components/containers/container-tasks";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { CheckedBy } from "~/components/tasks/checked-by";
import { TASK_TYPE_LABELS } from "~/modules/tasks/task-types";
import type { TaskBlock } from "~/modules/tasks/task-page";
import type { TaskType } from "~/modules/tasks/task-types";

export type CrusadeStep = {
  task: { id: string; title: string; description: string; type: TaskType; verification: "auto" | "review" | "none"; xp: number; published: boolean };
  state: "done" | "available" | "locked";
  /** The member's submission on an available step: waiting for review, or rejected (with why). */
  submission: { status: "pending" | "rejected"; reason: string | null } | null;
  /** What stops the member from doing an available step now (dates, places, its campaign). */
  block: TaskBlock | null;
};

function StepMarker({ step, n }: { step: CrusadeStep; n: number }) {
  if (step.state === "done")
    return (
      <span className="grid size-9 shrink-0 place-items-center rounded-full bg-green-600 text-white dark:bg-green-500">
        <Check className="size-5" aria-label="Done" />
      </span>
    );
  if (step.state === "locked")
    return (
      <span className="grid size-9 shrink-0 place-items-center rounded-full border bg-muted text-muted-foreground">
        <Lock className="size-4" aria-label="Locked" />
      </span>
    );
  return <span className="grid size-9 shrink-0 place-items-center rounded-full bg-brand font-semibold text-brand-foreground tabular-nums">{n}</span>;
}

/** The crusade's task cards in order: done ✓, the one to do now, and the locked ones after it. */
export function CrusadeSteps({ steps, team }: { steps: CrusadeStep[]; team: boolean }) {
  return (
    <ol className="relative grid gap-3">
      {steps.map((step, i) => {
        const previous = steps[i - 1];
        const linked = step.task.published || team;
        return (
          <li
            key={step.task.id}
            className={cn(
              "flex gap-4 rounded-xl border bg-card p-4",
              step.state === "available" && "border-lime-600/60 dark:border-brand/60",
              step.state === "locked" && "opacity-75",
            )}
          >
            <StepMarker step={step} n={i + 1} />
            <div className="grid min-w-0 flex-1 gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-xs text-muted-foreground">Step {i + 1}</span>
                {step.state === "done" && <Badge variant="success">Done</Badge>}
                {step.submission?.status === "pending" && <Badge variant="warning">In review</Badge>}
                {step.submission?.status === "rejected" && <Badge variant="destructive">Rejected</Badge>}
                {!step.task.published && <Badge variant="outline">{team ? "Draft" : "Coming soon"}</Badge>}
              </div>
              <h3 className="font-medium wrap-anywhere">
                {linked ? (
                  <Link to={route("tasks.show", [step.task.id])} className="hover:underline">
                    {step.task.title}
                  </Link>
                ) : (
                  step.task.title
                )}
              </h3>
              <p className="flex flex-wrap items-center gap-x-1 text-xs text-muted-foreground">
                {TASK_TYPE_LABELS[step.task.type]} · <span className="font-medium text-foreground tabular-nums">{step.task.xp.toLocaleString("en")} XP</span> ·{" "}
                <CheckedBy task={step.task} />
              </p>
              {step.state === "locked" && previous && (
                <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
                  <Lock className="size-3.5 shrink-0" aria-hidden /> Complete “{previous.task.title}” first.
                </p>
              )}
              {step.submission?.status === "rejected" && step.submission.reason && (
                <p className="text-sm text-destructive wrap-anywhere">Reason: {step.submission.reason}</p>
              )}
            </div>
            {step.state === "available" && step.block && step.submission?.status !== "pending" && <BlockLabel block={step.block} />}
            {step.state === "available" && !step.block && step.task.published && step.submission?.status !== "pending" && (
              <Button asChild size="sm" variant="brand" className="self-center">
                <Link to={route("tasks.show", [step.task.id])} aria-label={`${step.submission ? "Try again" : "Start"}: ${step.task.title}`}>
                  {step.submission ? "Try again" : "Start"}
                  <span className="sr-only">: {step.task.title}</span>
                </Link>
              </Button>
            )}
          </li>
        );
      })}
    </ol>
  );
}
