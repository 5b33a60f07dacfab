import { Download, Search } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";

/** Search and task filter for the submission tables (a GET form), with the CSV export of the same filters. */
export function SubmissionFilters({
  status,
  q,
  task,
  tasks,
  csvHref,
  clearHref,
  queue,
}: {
  status: string;
  q: string;
  task: string;
  tasks: { id: string; title: string }[];
  csvHref?: string;
  clearHref: string | null;
  /** On the project's page: which queue (campaign, crusade, standalone tasks) to show. */
  queue?: { value: string; options: { value: string; label: string }[] };
}) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.formMethod === "GET";
  return (
    <div className="grid gap-3 sm:flex sm:flex-wrap sm:items-end">
      <Form method="get" className="grid flex-1 gap-3 sm:flex sm:flex-wrap sm:items-end" role="search">
        <input type="hidden" name="status" value={status} />
        <div className="grid gap-2 sm:min-w-56 sm:flex-1">
          <Label htmlFor="q">Search</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input id="q" name="q" type="search" defaultValue={q} placeholder="Member name, e-mail or task" className="pl-9" maxLength={100} />
          </div>
        </div>
        {queue && (
          <div className="grid gap-2 sm:w-56">
            <Label htmlFor="queue">Queue</Label>
            <Select id="queue" name="in" defaultValue={queue.value}>
              <option value="">Everything</option>
              {queue.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </div>
        )}
        <div className="grid gap-2 sm:w-56">
          <Label htmlFor="task">Task</Label>
          <Select id="task" name="task" defaultValue={task}>
            <option value="">All tasks</option>
            {tasks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary" pending={searching}>
            Filter
          </Button>
          {clearHref && (
            <Button asChild variant="ghost">
              <Link to={clearHref}>Clear</Link>
            </Button>
          )}
        </div>
      </Form>
      {csvHref && (
        <Button asChild variant="outline" className="w-fit">
          <a href={csvHref} download>
            <Download /> Export CSV
          </a>
        </Button>
      )}
    </div>
  );
}
