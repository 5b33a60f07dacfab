import { Activity } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { route } from "~/lib/routes";
import { ProjectLogo } from "./project-logo";

export type ProjectCardData = {
  id: string;
  slug: string;
  name: string;
  description: string;
  logoUrl: string | null;
  category: { slug: string; name: string } | null;
  /** Completions of the project's tasks in the last 7 days. */
  activity: number;
};

/** A project in a list: the whole card opens it; the category badge opens the category. */
export function ProjectCard({ project }: { project: ProjectCardData }) {
  return (
    <article className="relative flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:border-foreground/20">
      <div className="flex items-start gap-3">
        <ProjectLogo name={project.name} logoUrl={project.logoUrl} />
        <div className="grid min-w-0 flex-1 gap-1">
          <h2 className="truncate font-semibold">
            <Link to={route("projects.show", { project })} className="outline-none after:absolute after:inset-0 after:rounded-xl">
              {project.name}
            </Link>
          </h2>
          {project.category && (
            <div>
              <Link
                to={route("categories.show", { category: project.category })}
                className="relative z-10 inline-flex rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <Badge variant="outline" className="hover:bg-accent">
                  {project.category.name}
                </Badge>
              </Link>
            </div>
          )}
        </div>
      </div>
      <p className="line-clamp-2 min-h-10 text-sm text-muted-foreground">{project.description || "No description yet."}</p>
      <p className="mt-auto flex items-center gap-1.5 text-xs text-muted-foreground">
        <Activity className="size-3.5" aria-hidden />
        {project.activity > 0
          ? `${project.activity.toLocaleString("en")} ${project.activity === 1 ? "completion" : "completions"} this week`
          : "No completions this week"}
      </p>
    </article>
  );
}
