import { CircleDashed, ShieldCheck, UserCheck } from "lucide-react";
import { cn } from "~/lib/utils";
import { howChecked, onchainNetworkOf } from "~/modules/tasks/task-checks";
import type { TaskType } from "~/modules/tasks/task-types";

/**
 * How a task is checked, said plainly on every card, list and page: "Checked with X", "Reviewed
 * by the team", "Checked on Base", "Checked by Questline", "Done by opening the link". Members and projects see which completions
 * are proven.
 */
export function CheckedBy({
  task,
  projectName = null,
  className,
}: {
  /** An on-chain task says its network: given (`network`), or read from its settings when the list carries them. */
  task: { type: TaskType; verification: "auto" | "review" | "none"; network?: string | null; config?: unknown };
  /** The task's project, where the screen has it: an api_check task says "Checked by <project>'s server". */
  projectName?: string | null;
  className?: string;
}) {
  const Icon = task.verification === "none" ? CircleDashed : task.verification === "review" ? UserCheck : ShieldCheck;
  return (
    <span className={cn("inline-flex items-center gap-1", className)}>
      <Icon className="size-3.5 shrink-0" aria-hidden />
      {howChecked({ type: task.type, verification: task.verification, network: task.network ?? onchainNetworkOf(task), projectName })}
    </span>
  );
}
