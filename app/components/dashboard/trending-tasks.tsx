import { Flame, ListChecks } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";

export type TrendingTask = { id: string; title: string; xp: number; typeLabel: string; project: { name: string }; recent: number };

/** The tasks most completed in the last 24 hours. */
export function TrendingTasks({ tasks }: { tasks: TrendingTask[] }) {
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Trending tasks</CardTitle>
        <CardDescription>Most completed in the last 24 hours.</CardDescription>
      </CardHeader>
      <CardContent>
        {tasks.length === 0 ? (
          <EmptyState icon={ListChecks} title="No tasks yet">
            Tasks appear here as projects publish them.
          </EmptyState>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {tasks.map((t) => (
              <li key={t.id}>
                <Link
                  to={route("tasks.show", [t.id])}
                  className="grid h-full gap-2 rounded-lg border p-4 transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <span className="flex items-start justify-between gap-2">
                    <span className="min-w-0 font-medium wrap-anywhere">{t.title}</span>
                    <Badge variant="brand" className="shrink-0">
                      {t.xp.toLocaleString("en")} XP
                    </Badge>
                  </span>
                  <span className="text-sm text-muted-foreground">
                    {t.project.name} · {t.typeLabel}
                  </span>
                  {t.recent > 0 && (
                    <span className="flex items-center gap-1 text-xs text-muted-foreground">
                      <Flame className="size-3.5 text-orange-500" aria-hidden />
                      {t.recent === 1 ? "1 completion" : `${t.recent.toLocaleString("en")} completions`} in the last 24 h
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
