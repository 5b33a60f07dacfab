import { RotateCcw, XCircle } from "lucide-react";
import { useFetcher } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/form-error";
import type { FieldErrors } from "~/lib/result";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { waitWords } from "~/lib/wait-words";
import type { FailedJob, JobCounts, OpenJob, QueueSummary } from "~/modules/jobs/operator-jobs";

/** What the Jobs page's Retry and Cancel buttons get back. */
export type JobActionData = { ok: true } | { ok: false; errors: FieldErrors };

const COUNTS: { key: Exclude<keyof JobCounts, "retrying">; word: string }[] = [
  { key: "queued", word: "waiting" },
  { key: "active", word: "running" },
  { key: "completed", word: "completed" },
  { key: "failed", word: "failed" },
  { key: "takenOver", word: "taken over" },
  { key: "cancelled", word: "cancelled" },
];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A queue: what it does, its jobs by state (a failure stands out), its oldest wait and last run. */
export function QueueCard({ queue }: { queue: QueueSummary<string> }) {
  const { counts } = queue;
  return (
    <li data-queue={queue.queue} className={cn("grid content-start gap-3 rounded-xl border bg-card p-4", counts.failed > 0 && "border-destructive/60")}>
      <div className="grid gap-1">
        <h3 className="font-semibold">{queue.label}</h3>
        <p className="text-sm text-muted-foreground">{queue.about}</p>
      </div>
      <dl className="flex flex-wrap gap-1.5">
        {COUNTS.map(({ key, word }) => {
          const alarm = key === "failed" && counts.failed > 0;
          return (
            <div key={key} className={cn("flex items-baseline gap-1.5 rounded-md bg-muted/60 px-2 py-1", alarm && "bg-destructive/15 text-destructive")}>
              <dt className={cn("text-xs", alarm ? "font-medium" : "text-muted-foreground")}>{word}</dt>
              <dd className="order-first font-semibold tabular-nums">{counts[key]}</dd>
            </div>
          );
        })}
      </dl>
      <p className="text-sm text-muted-foreground">
        {queue.oldestQueuedSeconds === null ? "Nothing waits." : `Oldest waiting for ${waitWords(queue.oldestQueuedSeconds)}`}
        {counts.retrying > 0 && ` (${plural(counts.retrying, "job", "jobs")} waiting to retry)`}
        {queue.oldestQueuedSeconds === null ? " " : ". "}
        {queue.lastRun ? (
          <>
            Last run {queue.lastRun.failed ? "failed" : "completed"} <LocalTime value={queue.lastRun.at} />.
          </>
        ) : (
          "No run in the last six hours."
        )}
      </p>
    </li>
  );
}

/** A job that failed for good, its error message and a Retry button. */
export function FailedJobRow({ job }: { job: FailedJob<string> }) {
  const { fetcher, error } = useJobAction();
  return (
    <li data-failed-job={job.id} className="grid gap-2 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium">{job.queueLabel}</span>
          <Badge variant="destructive">failed</Badge>
          <span className="text-sm text-muted-foreground">
            {job.keyLabel} · {plural(job.tries, "try", "tries")}
            {job.failedAt && (
              <>
                {" "}
                · <LocalTime value={job.failedAt} />
              </>
            )}
          </span>
        </p>
        <JobButton fetcher={fetcher} job={job} intent="retry" />
      </div>
      <p className="rounded-md bg-muted px-2 py-1.5 font-mono text-xs wrap-anywhere">{job.message}</p>
      <FormError message={error} />
    </li>
  );
}

/** A job waiting or running, with a Cancel button. */
export function OpenJobRow({ job }: { job: OpenJob<string> }) {
  const { fetcher, error } = useJobAction();
  return (
    <li data-open-job={job.id} className="grid gap-2 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium">{job.queueLabel}</span>
          <Badge variant={job.state === "active" ? "brand" : job.state === "retry" && !job.takenOver ? "warning" : "secondary"}>{job.stateWords}</Badge>
          <span className="text-sm text-muted-foreground">
            {job.keyLabel} · {job.nextTryAt ? "next try" : job.startedAt ? "started" : "sent"}{" "}
            <LocalTime value={job.nextTryAt ?? job.startedAt ?? job.createdAt} />
            {job.tries > 0 && ` · ${plural(job.tries, "try", "tries")}`}
          </span>
        </p>
        <JobButton fetcher={fetcher} job={job} intent="cancel" />
      </div>
      {job.lastError && <p className="rounded-md bg-muted px-2 py-1.5 font-mono text-xs wrap-anywhere">Last error: {job.lastError}</p>}
      {job.takenOver && <p className="text-sm text-muted-foreground">The process running it ended before it finished; another process runs it again.</p>}
      <FormError message={error} />
    </li>
  );
}

/** A row's Retry or Cancel, and the refusal's words for the row to show (the page says a success: the row is gone by then). */
function useJobAction() {
  const fetcher = useFetcher<JobActionData>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  return { fetcher, error: result && !result.ok ? Object.values(result.errors)[0] : undefined };
}

type JobFetcher = ReturnType<typeof useJobAction>["fetcher"];

/** Retry or Cancel for one job, pending while it goes. */
function JobButton({
  fetcher,
  job,
  intent,
}: {
  fetcher: JobFetcher;
  job: { id: string; queue: string; queueLabel: string; keyLabel: string };
  intent: "retry" | "cancel";
}) {
  const verb = intent === "retry" ? "Retry" : "Cancel";
  return (
    <fetcher.Form method="post" action={route("operator.jobs")}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="queue" value={job.queue} />
      <input type="hidden" name="id" value={job.id} />
      <Button
        type="submit"
        size="sm"
        variant={intent === "retry" ? "default" : "outline"}
        pending={fetcher.state !== "idle"}
        aria-label={`${verb} the ${job.queueLabel} job (${job.keyLabel})`}
      >
        {intent === "retry" ? <RotateCcw aria-hidden /> : <XCircle aria-hidden />} {verb}
      </Button>
    </fetcher.Form>
  );
}
