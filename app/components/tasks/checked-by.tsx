import { CircleDashed, ShieldCheck, UserCheck } from "lucide-react";
import { cn } from "~/lib/utils";
import { howChecked } from "~/modules/tasks/task-checks";
import type { TaskType } from "~/modules/tasks/task-types";

/**
 * How a task is checked, said plainly on every card, list and page: "Checked with X", "Reviewed
 * by the team", "Checked by Questline", "Done by opening the link". Members and projects see which completions
 * are proven.
 */
export function CheckedBy({ task, className }: { task: { type: TaskType; verification: "auto" | "review" | "none" }; className?: string }) {
  const Icon = task.verification === "none" ? CircleDashed : task.verification === "review" ? UserCheck : ShieldCheck;
  return (
    <span className={cn("inline-flex items-center gap-1", className)}>
      <Icon className="size-3.5 shrink-0" aria-hidden />
      {howChecked(task)}
    </span>
  );
}
