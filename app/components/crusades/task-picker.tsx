import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { route } from "~/lib/routes";
import { TASK_TYPE_LABELS } from "~/modules/tasks/task-types";
import type { TaskType } from "~/modules/tasks/task-types";

export type PickableTask = { id: string; title: string; type: TaskType; xp: number; published: boolean; crusade: { id: string; name: string } | null };

function TaskLine({ task, crusadeId }: { task: PickableTask; crusadeId: string | null }) {
  return (
    <div className="grid min-w-0 flex-1 gap-0.5">
      <span className="text-sm font-medium wrap-anywhere">{task.title}</span>
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        {TASK_TYPE_LABELS[task.type]} · {task.xp.toLocaleString("en")} XP
        {!task.published && <Badge variant="outline">Draft</Badge>}
        {task.crusade && task.crusade.id !== crusadeId && <span>In “{task.crusade.name}”: adding it moves it here</span>}
      </span>
    </div>
  );
}

/**
 * Chooses the crusade's tasks from the project's and puts them in order (up/down buttons); sends
 * their ids in order as `taskIds`.
 */
export function TaskPicker({
  tasks,
  initial,
  crusadeId,
  projectSlug,
  error,
}: {
  tasks: PickableTask[];
  initial: string[];
  crusadeId: string | null;
  projectSlug: string;
  error?: string;
}) {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const [order, setOrder] = useState(() => initial.filter((id) => byId.has(id)));
  const [filter, setFilter] = useState("");
  const chosen = order.map((id) => byId.get(id)!).filter(Boolean);
  const rest = tasks.filter((t) => !order.includes(t.id) && t.title.toLowerCase().includes(filter.trim().toLowerCase()));
  const move = (i: number, by: -1 | 1) =>
    setOrder((current) => {
      const next = [...current];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });

  return (
    <fieldset className="grid gap-3" aria-describedby={error ? "taskIds-error" : undefined}>
      <legend className="text-sm font-medium">Tasks, in order</legend>
      <input type="hidden" name="taskIds" value={order.join(",")} />
      {chosen.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No tasks yet: add them from the project's tasks below. Members do them in this order.
        </p>
      ) : (
        <ol className="divide-y rounded-lg border">
          {chosen.map((task, i) => (
            <li key={task.id} className="flex items-center gap-3 p-3">
              <span className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">{i + 1}</span>
              <TaskLine task={task} crusadeId={crusadeId} />
              <div className="flex shrink-0 gap-1">
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-8"
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={`Move ${task.title} up`}
                >
                  <ArrowUp />
                </Button>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-8"
                  disabled={i === chosen.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={`Move ${task.title} down`}
                >
                  <ArrowDown />
                </Button>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-8"
                  onClick={() => setOrder(order.filter((id) => id !== task.id))}
                  aria-label={`Remove ${task.title}`}
                >
                  <X />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p id="taskIds-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="grid gap-2 rounded-lg bg-muted/40 p-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-sm font-medium">The project's tasks</span>
          {tasks.length > 6 && (
            <Input
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Find a task"
              aria-label="Find a task"
              className="h-8 max-w-56 bg-background"
            />
          )}
        </div>
        {tasks.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            This project has no tasks yet.{" "}
            <Link to={route("tasks.new", { project: projectSlug })} className="font-medium text-foreground underline underline-offset-4">
              Create a task
            </Link>{" "}
            first.
          </p>
        ) : rest.length === 0 ? (
          <p className="text-sm text-muted-foreground">{filter ? "No task matches." : "Every task of the project is in this crusade."}</p>
        ) : (
          <ul className="grid gap-1">
            {rest.map((task) => (
              <li key={task.id} className="flex items-center gap-3 rounded-md bg-background p-2 pl-3">
                <TaskLine task={task} crusadeId={crusadeId} />
                <Button type="button" size="sm" variant="outline" onClick={() => setOrder([...order, task.id])} aria-label={`Add ${task.title}`}>
                  <Plus /> Add
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </fieldset>
  );
}
