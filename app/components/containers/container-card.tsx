import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card } from "~/components/ui/card";

/** One line of a card's facts: an icon named for screen readers, then what it says. */
export type ContainerFact = { icon: LucideIcon; label: string; content: ReactNode };

/**
 * A container of tasks (a campaign, a crusade, an airdrop) on an index: whose, its name linked to
 * its page (the whole card is the link's target), its state, what it is, its facts and, below, the
 * member's standing in it.
 */
export function ContainerCard({
  to,
  name,
  description,
  project,
  badge,
  facts,
  footer,
  headingLevel = 2,
}: {
  to: string;
  name: string;
  description: string;
  /** The project it belongs to, on indexes that mix projects. */
  project?: { name: string; logoUrl?: string | null } | null;
  badge?: ReactNode;
  facts: ContainerFact[];
  footer?: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <Card className="relative flex flex-col gap-4 p-5 transition-colors focus-within:ring-2 focus-within:ring-ring/50 hover:border-foreground/20">
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          {project && (
            <span className="flex items-center gap-2 text-xs text-muted-foreground">
              {project.logoUrl && <img src={project.logoUrl} alt="" className="size-4 rounded-sm object-cover" />}
              <span className="truncate">{project.name}</span>
            </span>
          )}
          <Heading className="font-semibold leading-snug wrap-anywhere">
            <Link to={to} className="outline-none after:absolute after:inset-0 after:rounded-xl">
              {name}
            </Link>
          </Heading>
        </div>
        {badge}
      </div>
      {description && <p className="line-clamp-2 text-sm text-muted-foreground">{description}</p>}
      <dl className="mt-auto grid gap-1.5 text-sm text-muted-foreground">
        {facts.map(({ icon: Icon, label, content }) => (
          <div key={label} className="flex items-center gap-2">
            <dt>
              <Icon className="size-4" aria-label={label} />
            </dt>
            <dd className="min-w-0">{content}</dd>
          </div>
        ))}
      </dl>
      {footer}
    </Card>
  );
}
