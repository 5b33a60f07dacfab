import { Timer } from "lucide-react";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import { RankRow } from "~/components/leaderboard-table";
import { formatUtc } from "./format";

export type CompleterRow = { rank: number; userId: string; name: string; image: string | null; completedAt: Date | string };
export type CompletersData = { rows: CompleterRow[]; mine: CompleterRow | null; around: CompleterRow[]; page: number; hasMore: boolean };

function Row({ row, me }: { row: CompleterRow; me: boolean }) {
  return (
    <RankRow rank={row.rank} name={row.name} image={row.image} me={me}>
      <time dateTime={new Date(row.completedAt).toISOString()} className="text-xs text-muted-foreground sm:text-sm">
        {formatUtc(row.completedAt)}
      </time>
    </RankRow>
  );
}

/** A task's first completers in order, with the viewer's own place when it is not on the page. */
export function FirstCompleters({ data, userId }: { data: CompletersData; userId: string | null }) {
  if (data.rows.length === 0 && !data.mine) {
    return (
      <EmptyState icon={Timer} title="No one has completed this task yet">
        Complete it to be the first.
      </EmptyState>
    );
  }
  const meOnPage = data.rows.some((r) => r.userId === userId);
  return (
    <div className="grid gap-4">
      <ol className="divide-y rounded-xl border" aria-label="First completers">
        {data.rows.map((row) => (
          <Row key={row.userId} row={row} me={row.userId === userId} />
        ))}
      </ol>
      {data.mine && !meOnPage && (
        <section aria-label="Your place" className="grid gap-2">
          <h3 className="text-sm font-medium text-muted-foreground">
            You were #{data.mine.rank}, on {formatUtc(data.mine.completedAt)}
          </h3>
          <ol className="divide-y rounded-xl border">
            {data.around.map((row) => (
              <Row key={row.userId} row={row} me={row.userId === userId} />
            ))}
          </ol>
        </section>
      )}
      <Pagination page={data.page} hasMore={data.hasMore} />
    </div>
  );
}
