import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { route } from "~/lib/routes";

/** "Projects › <project> › …": where a project's screen sits. */
export function ProjectCrumb({ project, trail = [] }: { project: { slug: string; name: string }; trail?: { label: string; to: string }[] }) {
  const links = [{ label: "Projects", to: route("projects.index") }, { label: project.name, to: route("projects.show", { project: project.slug }) }, ...trail];
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-muted-foreground">
      <ol className="flex flex-wrap items-center gap-1">
        {links.map((link, i) => (
          <li key={link.to} className="flex min-w-0 items-center gap-1">
            {i > 0 && <ChevronRight className="size-3.5 shrink-0" aria-hidden />}
            <Link to={link.to} className="truncate hover:text-foreground hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
