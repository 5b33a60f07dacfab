import { Plus, Tags } from "lucide-react";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/index";
import { PageHeader } from "~/components/page-header";
import { pageParam } from "~/components/pagination";
import { InvitationsCard } from "~/components/projects/invitations-card";
import { ProjectFilters } from "~/components/projects/project-filters";
import { ProjectGrid } from "~/components/projects/project-grid";
import { Button } from "~/components/ui/button";
import { publicMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { invitationCards } from "~/modules/projects/invitation-cards.server";
import { isOperator } from "~/modules/projects/operators.server";
import { listCategories, listProjects } from "~/modules/projects/projects.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return publicMeta(args, { page: "Projects", description: "Browse Web3 projects, their campaigns and quests." });
}

const querySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  category: z.string().trim().max(60).catch(""),
  sort: z.enum(["trending", "new"]).catch("trending"),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, env } = context.get(servicesContext);
  const db = database.db;
  const url = new URL(request.url);
  const query = querySchema.parse({
    q: url.searchParams.get("q") ?? "",
    category: url.searchParams.get("category") ?? "",
    sort: url.searchParams.get("sort") ?? undefined,
  });
  const page = pageParam(url);
  const session = await getSession(context);
  const categories = await listCategories({ db });
  const category = categories.find((c) => c.slug === query.category) ?? null;
  const [{ projects, hasMore }, invitations, operator] = await Promise.all([
    listProjects({ db, search: query.q || undefined, categoryId: category?.id, sort: query.sort, page }),
    session ? invitationCards({ db, userId: session.user.id }) : [],
    isOperator({ db, operators: env.operators, userId: session?.user.id }),
  ]);
  return {
    query: { ...query, category: category?.slug ?? "" },
    categories: categories.map(({ slug, name }) => ({ slug, name })),
    projects,
    page,
    hasMore,
    signedIn: session !== null,
    invitations,
    operator,
  };
}

export default function ProjectsIndex({ loaderData }: Route.ComponentProps) {
  const { query, categories, projects, page, hasMore, signedIn, invitations, operator } = loaderData;
  const filtered = query.q !== "" || query.category !== "";
  const newProject = signedIn && (
    <Button asChild variant="brand">
      <Link to={route("projects.new")}>
        <Plus aria-hidden /> New project
      </Link>
    </Button>
  );
  const actions = (operator || signedIn) && (
    <div className="flex flex-wrap gap-2">
      {operator && (
        <Button asChild variant="outline">
          <Link to={route("operator.categories")}>
            <Tags aria-hidden /> Categories
          </Link>
        </Button>
      )}
      {newProject}
    </div>
  );
  return (
    <>
      <PageHeader title="Projects" description="Web3 communities running campaigns, crusades and quests." actions={actions} />
      {invitations.length > 0 && (
        <div className="mb-6">
          <InvitationsCard invitations={invitations} />
        </div>
      )}
      <ProjectFilters q={query.q} category={query.category} sort={query.sort} categories={categories} />
      <ProjectGrid
        projects={projects}
        page={page}
        hasMore={hasMore}
        empty={
          filtered
            ? { title: "No projects match", text: "Try other words or another category." }
            : {
                title: "No projects yet",
                text: signedIn ? "Create the first one and invite your team." : "Projects appear here as teams create them.",
                action: newProject,
              }
        }
      />
    </>
  );
}
