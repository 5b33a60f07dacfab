import { Gift, ListOrdered } from "lucide-react";
import { ProgressMeter } from "~/components/campaigns/progress-meter";
import { ContainerCard, type ContainerFact } from "~/components/containers/container-card";
import { Badge } from "~/components/ui/badge";
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
  const facts: ContainerFact[] = [{ icon: ListOrdered, label: "Steps", content: `${crusade.total} ${crusade.total === 1 ? "task" : "tasks"} in order` }];
  if (crusade.bonusXp > 0) {
    facts.push({
      icon: Gift,
      label: "Completion bonus",
      content: (
        <>
          <span className="font-medium text-foreground tabular-nums">+{crusade.bonusXp.toLocaleString("en")} XP</span> bonus at the end
        </>
      ),
    });
  }
  return (
    <ContainerCard
      to={route("crusades.show", { project: crusade.project.slug, crusade: crusade.slug })}
      name={crusade.name}
      description={crusade.description}
      project={showProject ? crusade.project : null}
      badge={!crusade.publishedAt ? <Badge variant="outline">Draft</Badge> : complete && signedIn ? <Badge variant="success">Completed</Badge> : null}
      facts={facts}
      footer={signedIn && crusade.total > 0 && <ProgressMeter done={crusade.done} total={crusade.total} />}
    />
  );
}
