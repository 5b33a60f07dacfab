import { ListChecks, Search } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/index";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { TrendingCards } from "~/components/tasks/trending-cards";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { pageNow } from "~/lib/page-now.server";
import { publicMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { publicTask } from "~/modules/tasks/task-page.server";
import { memberStates } from "~/modules/tasks/tasks.server";
import { trendingTasks } from "~/modules/tasks/trending.server";
import { canVerifyXByPost } from "~/modules/social/verify-x.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return publicMeta(args, { page: "Tasks", description: "Tasks from every project: quizzes, visits, posts, follows and more, each worth XP." });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const session = await getSession(context);
  const rows = await trendingTasks({ db, search: q || undefined, limit: 48 });
  const states = await memberStates({ db, userId: session?.user.id ?? null, tasks: rows.map((r) => r.task) });
  const social = context.get(servicesContext).env.social;
  return {
    q,
    /** Members may prove an X account by a post here (Tasks › Verify X account). */
    verifyX: Boolean(session) && canVerifyXByPost(social),
    now: pageNow(),
    tasks: rows.map((r) => ({ task: publicTask(r.task), project: r.project, recent: r.recent, state: states.get(r.task.id) ?? null })),
  };
}

export default function TasksIndex({ loaderData: { q, now, tasks, verifyX } }: Route.ComponentProps) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === route("tasks.index");
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Trending now: the tasks members completed most in the last 24 hours."
        actions={
          verifyX && (
            <Button asChild variant="outline">
              <Link to={route("tasks.verifyX")}>Verify X account</Link>
            </Button>
          )
        }
      />
      <Form method="get" role="search" className="mb-6 flex max-w-xl gap-2">
        <label htmlFor="q" className="sr-only">
          Search tasks
        </label>
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input id="q" name="q" type="search" defaultValue={q} placeholder="Task or project" className="pl-9" key={q} />
        </div>
        <Button type="submit" variant="outline" pending={searching}>
          Search
        </Button>
      </Form>
      {tasks.length > 0 ? (
        <section aria-label={q ? `Tasks matching “${q}”` : "Trending tasks"}>
          <TrendingCards tasks={tasks} now={now} />
        </section>
      ) : q ? (
        <EmptyState
          icon={Search}
          title={`No task matches “${q}”`}
          action={
            <Button asChild variant="outline">
              <Link to={route("tasks.index")}>Show all tasks</Link>
            </Button>
          }
        >
          Try another word, or search by the project&apos;s name.
        </EmptyState>
      ) : (
        <EmptyState
          icon={ListChecks}
          title="No tasks yet"
          action={
            <Button asChild variant="outline">
              <Link to={route("projects.index")}>Browse projects</Link>
            </Button>
          }
        >
          When projects publish tasks, they appear here, the busiest first.
        </EmptyState>
      )}
    </>
  );
}
