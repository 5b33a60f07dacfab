import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";

/** The way back from one of a project's own pages (team, API, webhooks, Discord, Telegram) to the project. */
export function BackToProject({ project }: { project: { slug: string; name: string } }) {
  return (
    <Button asChild variant="outline">
      <Link to={route("projects.show", { project })}>
        <ArrowLeft aria-hidden /> {project.name}
      </Link>
    </Button>
  );
}
