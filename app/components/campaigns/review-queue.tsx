import type { ComponentProps } from "react";
import { Pagination } from "~/components/pagination";
import { FilterTabs } from "./filter-tabs";
import { SubmissionFilters } from "./submission-filters";
import { SubmissionsTable, type SubmissionRow } from "./submissions-table";

type Status = SubmissionRow["status"];

/**
 * A review queue's body, the same on a campaign's Submissions page and the project's To review
 * page: status tabs with counts, the filters, how many match, the table and its pages.
 */
export function ReviewQueue({
  viewerId,
  filters,
  counts,
  tasks,
  list,
  filtered,
  csvHref,
  clearHref,
  queue,
}: {
  viewerId: string;
  filters: { status: Status; q: string; task: string };
  counts: Record<Status, number>;
  tasks: { id: string; title: string }[];
  list: { rows: SubmissionRow[]; total: number; page: number; pageCount: number };
  filtered: boolean;
  clearHref: string | null;
} & Pick<ComponentProps<typeof SubmissionFilters>, "csvHref" | "queue">) {
  return (
    <div className="grid gap-4">
      <FilterTabs
        param="status"
        label="Submission status"
        current={filters.status}
        tabs={[
          { value: "pending", label: "Pending", count: counts.pending },
          { value: "approved", label: "Approved", count: counts.approved },
          { value: "rejected", label: "Rejected", count: counts.rejected },
        ]}
      />
      <SubmissionFilters
        key={`${filters.q}|${filters.task}|${queue?.value ?? ""}`}
        status={filters.status}
        q={filters.q}
        task={filters.task}
        tasks={tasks}
        csvHref={csvHref}
        queue={queue}
        clearHref={clearHref}
      />
      {filtered && (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {list.total} {list.total === 1 ? "submission matches" : "submissions match"}
        </p>
      )}
      <SubmissionsTable key={filters.status} status={filters.status} rows={list.rows} filtered={filtered} viewerId={viewerId} />
      <Pagination page={list.page} pageCount={list.pageCount} hasMore={list.page < list.pageCount} />
    </div>
  );
}
