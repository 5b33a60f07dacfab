import type { ReactNode } from "react";
import { FolderKanban } from "lucide-react";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import { ProjectCard, type ProjectCardData } from "./project-card";

/** A page of project cards with its pagination, or the empty state when there are none. */
export function ProjectGrid({
  projects,
  page,
  hasMore,
  empty,
}: {
  projects: ProjectCardData[];
  page: number;
  hasMore: boolean;
  empty: { title: string; text?: ReactNode; action?: ReactNode };
}) {
  if (projects.length === 0 && page <= 1) {
    return (
      <EmptyState icon={FolderKanban} title={empty.title} action={empty.action}>
        {empty.text}
      </EmptyState>
    );
  }
  return (
    <div>
      {projects.length === 0 ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-sm text-muted-foreground">There are no more projects on this page.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {projects.map((project) => (
            <li key={project.id} className="grid">
              <ProjectCard project={project} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} hasMore={hasMore} />
    </div>
  );
}
