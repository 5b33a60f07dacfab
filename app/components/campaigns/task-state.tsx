import { CheckCircle2, Circle, Clock, XCircle } from "lucide-react";
import { Badge } from "~/components/ui/badge";

export type MemberTaskState = { status: "approved" | "pending" | "rejected"; reason: string | null } | null;

/** The member's standing on a task, as an icon (for lists). */
export function TaskStateIcon({ state }: { state: MemberTaskState }) {
  if (state?.status === "approved") return <CheckCircle2 className="size-5 shrink-0 text-green-600 dark:text-green-400" aria-label="Done" />;
  if (state?.status === "pending") return <Clock className="size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-label="In review" />;
  if (state?.status === "rejected") return <XCircle className="size-5 shrink-0 text-destructive" aria-label="Rejected" />;
  return <Circle className="size-5 shrink-0 text-muted-foreground" aria-label="To do" />;
}

/** The member's standing on a task, as a badge. */
export function TaskStateBadge({ state }: { state: MemberTaskState }) {
  if (state?.status === "approved") return <Badge variant="success">Done</Badge>;
  if (state?.status === "pending") return <Badge variant="warning">In review</Badge>;
  if (state?.status === "rejected") return <Badge variant="destructive">Rejected</Badge>;
  return null;
}
