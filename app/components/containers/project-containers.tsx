import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";

/**
 * A project's index of one kind of container (its campaigns, crusades, airdrops): the crumb, the
 * title and, for who may create one, the New button: in the header once there are some, in the
 * empty state (given to `children`) before.
 */
export function ProjectContainers({
  project,
  title,
  description,
  create,
  count,
  children,
}: {
  project: { slug: string; name: string };
  title: string;
  description: ReactNode;
  /** The New button's label and target, for who may create one. */
  create: { label: string; to: string } | null;
  count: number;
  children: (createButton: ReactNode) => ReactNode;
}) {
  const button = create ? (
    <Button asChild>
      <Link to={create.to}>
        <Plus /> {create.label}
      </Link>
    </Button>
  ) : undefined;
  return (
    <>
      <ProjectCrumb project={project} />
      <PageHeader title={title} description={description} actions={count > 0 ? button : undefined} />
      {children(button)}
    </>
  );
}
