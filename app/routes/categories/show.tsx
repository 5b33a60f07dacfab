import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/show";
import { PageHeader } from "~/components/page-header";
import { pageParam } from "~/components/pagination";
import { ProjectGrid } from "~/components/projects/project-grid";
import { SortTabs } from "~/components/projects/sort-tabs";
import { Button } from "~/components/ui/button";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { categoryBySlug } from "~/modules/projects/categories.server";
import { listProjects } from "~/modules/projects/projects.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Category", ({ category }, appName) => ({
    page: category.name,
    description: category.description || `${category.name} projects on ${appName}.`,
  }));
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const category = await categoryBySlug({ db, slug: params.category });
  if (!category) throw data("Not found", { status: 404 });
  const url = new URL(request.url);
  const sort = url.searchParams.get("sort") === "new" ? ("new" as const) : ("trending" as const);
  const page = pageParam(url);
  const { projects, hasMore } = await listProjects({ db, categoryId: category.id, sort, page });
  return { category: { slug: category.slug, name: category.name, description: category.description }, projects, sort, page, hasMore };
}

export default function CategoryShow({ loaderData: { category, projects, sort, page, hasMore } }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title={category.name}
        description={category.description || `Projects in ${category.name}.`}
        actions={
          <Button asChild variant="outline">
            <Link to={route("projects.index")}>
              <ArrowLeft aria-hidden /> All projects
            </Link>
          </Button>
        }
      />
      <div className="mb-6">
        <SortTabs current={sort} />
      </div>
      <ProjectGrid
        projects={projects}
        page={page}
        hasMore={hasMore}
        empty={{ title: `No ${category.name} projects yet`, text: "Projects appear here when their team picks this category." }}
      />
    </>
  );
}
