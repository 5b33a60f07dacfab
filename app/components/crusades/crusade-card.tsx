import { Gift, ListOrdered } from "lucide-react";
import { Link } from "react-router";
import { ProgressMeter } from "~/components/campaigns/progress-meter";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { route } from "~/lib/routes";

export type CrusadeCardData = {
  id: string;
  slug: string;
  name: string;
  description: string;
  bonusXp: number;
  publishedAt: Date | string | null;
  project: { slug: string; name: string };
  done: number;
  total: number;
};

/** A crusade on an index: its steps, its bonus and, for a member, how far they are. */
export function CrusadeCard({ crusade, signedIn, showProject = true }: { crusade: CrusadeCardData; signedIn: boolean; showProject?: boolean }) {
  const complete = crusade.total > 0 && crusade.done === crusade.total;
  return (
    <Card className="relative flex flex-col gap-4 p-5 transition-colors focus-within:ring-2 focus-within:ring-ring/50 hover:border-foreground/20">
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          {showProject && <span className="truncate text-xs text-muted-foreground">{crusade.project.name}</span>}
          <h2 className="font-semibold leading-snug wrap-anywhere">
            <Link
              to={route("crusades.show", { project: crusade.project.slug, crusade: crusade.slug })}
              className="outline-none after:absolute after:inset-0 after:rounded-xl"
            >
              {crusade.name}
            </Link>
          </h2>
        </div>
        {!crusade.publishedAt ? <Badge variant="outline">Draft</Badge> : complete && signedIn ? <Badge variant="success">Completed</Badge> : null}
      </div>
      {crusade.description && <p className="line-clamp-2 text-sm text-muted-foreground">{crusade.description}</p>}
      <dl className="mt-auto grid gap-1.5 text-sm text-muted-foreground">
        <div className="flex items-center gap-2">
          <dt>
            <ListOrdered className="size-4" aria-label="Steps" />
          </dt>
          <dd>
            {crusade.total} {crusade.total === 1 ? "task" : "tasks"} in order
          </dd>
        </div>
        {crusade.bonusXp > 0 && (
          <div className="flex items-center gap-2">
            <dt>
              <Gift className="size-4" aria-label="Completion bonus" />
            </dt>
            <dd>
              <span className="font-medium text-foreground tabular-nums">+{crusade.bonusXp.toLocaleString("en")} XP</span> bonus at the end
            </dd>
          </div>
        )}
      </dl>
      {signedIn && crusade.total > 0 && <ProgressMeter done={crusade.done} total={crusade.total} />}
    </Card>
  );
}
