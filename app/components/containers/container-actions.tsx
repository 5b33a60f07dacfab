import { ClipboardCheck, Pencil, Plus, Trophy } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** A container page's header buttons, each given only to who may use it (null: not shown). */
export function ContainerActions({
  leaderboardTo = null,
  submissionsTo = null,
  editTo = null,
  addTaskTo = null,
}: {
  leaderboardTo?: string | null;
  submissionsTo?: string | null;
  editTo?: string | null;
  addTaskTo?: string | null;
}) {
  if (!leaderboardTo && !submissionsTo && !editTo && !addTaskTo) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {leaderboardTo && (
        <Button asChild variant="outline">
          <Link to={leaderboardTo}>
            <Trophy /> Leaderboard
          </Link>
        </Button>
      )}
      {submissionsTo && (
        <Button asChild variant="outline">
          <Link to={submissionsTo}>
            <ClipboardCheck /> Submissions
          </Link>
        </Button>
      )}
      {editTo && (
        <Button asChild variant="outline">
          <Link to={editTo}>
            <Pencil /> Edit
          </Link>
        </Button>
      )}
      {addTaskTo && (
        <Button asChild>
          <Link to={addTaskTo}>
            <Plus /> Add task
          </Link>
        </Button>
      )}
    </div>
  );
}
