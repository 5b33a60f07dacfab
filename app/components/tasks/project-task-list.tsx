import type { ReactNode } from "react";
import { ListChecks, Search } from "lucide-react";
import { Form, Link } from "react-router";
import { CampaignStatusBadge } from "~/components/campaigns/campaign-status";
import { FilterTabs } from "~/components/campaigns/filter-tabs";
import { EmptyState } from "~/components/empty-state";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { route } from "~/lib/routes";
import type { ProjectTaskRow, TaskContainer } from "~/modules/tasks/project-tasks";

const KIND_LABELS = { campaign: "Campaign", crusade: "Crusade", airdrop: "Airdrop", standalone: "Standalone" } as const;

/** The task's container in words, linked where it has a page. */
function Container({ projectSlug, container }: { projectSlug: string; container: TaskContainer }) {
  if (container.kind === "standalone") return <span className="text-muted-foreground">Standalone</span>;
  const to =
    container.kind === "campaign" && container.slug
      ? route("campaigns.show", { project: projectSlug, campaign: container.slug })
      : container.kind === "crusade" && container.slug
        ? route("crusades.show", { project: projectSlug, crusade: container.slug })
        : container.kind === "airdrop" && container.slug
          ? route("airdrops.show", { project: projectSlug, airdrop: container.slug })
          : null;
  return (
    <span>
      <span className="text-muted-foreground">{KIND_LABELS[container.kind]}: </span>
      {to ? (
        <Link to={to} className="underline-offset-4 hover:underline">
          {container.name}
        </Link>
      ) : (
        container.name
      )}
    </span>
  );
}

function Completions({ row, showPending }: { row: ProjectTaskRow; showPending: boolean }) {
  return (
    <span className="tabular-nums">
      {row.approved.toLocaleString("en")} done
      {showPending && row.pending > 0 && <span className="text-muted-foreground"> · {row.pending.toLocaleString("en")} to review</span>}
    </span>
  );
}

export type ProjectTaskFilters = { container: string; status: string; q: string };

/** A project's every task: filters by container and status, a title search, a table (cards on phones). */
export function ProjectTaskList({
  projectSlug,
  rows,
  filters,
  showDrafts,
  showPending,
  create,
}: {
  projectSlug: string;
  rows: ProjectTaskRow[];
  filters: ProjectTaskFilters;
  showDrafts: boolean;
  showPending: boolean;
  create?: ReactNode;
}) {
  const filtered = filters.container !== "" || filters.status !== "" || filters.q !== "";
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <FilterTabs
          param="in"
          label="Tasks by what holds them"
          current={filters.container}
          tabs={[
            { value: "", label: "All" },
            { value: "campaign", label: "Campaigns" },
            { value: "crusade", label: "Crusades" },
            { value: "standalone", label: "Standalone" },
          ]}
        />
        <FilterTabs
          param="status"
          label="Tasks by status"
          current={filters.status}
          tabs={[
            { value: "", label: "Any status" },
            { value: "live", label: "Live" },
            { value: "scheduled", label: "Scheduled" },
            { value: "ended", label: "Ended" },
            ...(showDrafts ? [{ value: "draft", label: "Drafts" }] : []),
          ]}
        />
      </div>
      <Form method="get" role="search" className="flex max-w-md gap-2">
        {filters.container && <input type="hidden" name="in" value={filters.container} />}
        {filters.status && <input type="hidden" name="status" value={filters.status} />}
        <label htmlFor="q" className="sr-only">
          Search this project&apos;s tasks
        </label>
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input id="q" name="q" type="search" defaultValue={filters.q} placeholder="Task title" className="pl-9" key={filters.q} maxLength={100} />
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </Form>
      {rows.length === 0 ? (
        <EmptyState
          icon={ListChecks}
          title={filtered ? "No task matches these filters" : "No tasks yet"}
          action={
            filtered ? (
              <Button asChild variant="outline">
                <Link to={route("projects.tasks", { project: projectSlug })}>Show every task</Link>
              </Button>
            ) : (
              create
            )
          }
        >
          {filtered ? "Try another filter or word." : "Tasks appear here once the project adds them, in a campaign, a crusade or on their own."}
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-3 sm:hidden" aria-label="Tasks">
            {rows.map((row) => (
              <li key={row.id} className="grid gap-1.5 rounded-xl border p-4 text-sm">
                <div className="flex items-start justify-between gap-2">
                  <Link to={route("tasks.show", { task: row.id })} className="font-medium underline-offset-4 hover:underline">
                    {row.title}
                  </Link>
                  <CampaignStatusBadge status={row.status} />
                </div>
                <Container projectSlug={projectSlug} container={row.container} />
                <div className="flex flex-wrap gap-x-3 text-muted-foreground">
                  <span>{row.typeLabel}</span>
                  <span className="tabular-nums">{row.xp.toLocaleString("en")} XP</span>
                  <Completions row={row} showPending={showPending} />
                </div>
              </li>
            ))}
          </ul>
          <div className="hidden sm:block">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Task</TableHead>
                  <TableHead>In</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead className="text-right">XP</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Completions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell className="font-medium">
                      <Link to={route("tasks.show", { task: row.id })} className="underline-offset-4 hover:underline">
                        {row.title}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Container projectSlug={projectSlug} container={row.container} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{row.typeLabel}</TableCell>
                    <TableCell className="text-right tabular-nums">{row.xp.toLocaleString("en")}</TableCell>
                    <TableCell>
                      <CampaignStatusBadge status={row.status} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      <Completions row={row} showPending={showPending} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
    </div>
  );
}
