import { CircleCheck, Hourglass, RefreshCw } from "lucide-react";
import { useRevalidator } from "react-router";
import type { Route } from "./+types/jobs";
import { EmptyState } from "~/components/empty-state";
import { FailedJobRow, OpenJobRow, QueueCard, type JobActionData } from "~/components/operator/job-lists";
import { OperatorNav } from "~/components/operator/operator-nav";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { dataWithToast } from "~/lib/flash.server";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { OPEN_SHOWN } from "~/modules/jobs/operator-jobs";
import { cancelOpenJob, jobActionSchema, jobQueueSummaries, lastFailedJobs, openJobs, retryFailedJob } from "~/modules/jobs/operator-jobs.server";
import { requireOperatorUser } from "~/modules/projects/operators.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Jobs") }, { name: "robots", content: "noindex" }];
}

const iso = (value: Date) => value.toISOString();

export async function loader(args: Route.LoaderArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  const [queues, failed, open] = await Promise.all([jobQueueSummaries({ db }), lastFailedJobs({ db }), openJobs({ db })]);
  return {
    queues: queues.map((queue) => ({ ...queue, lastRun: queue.lastRun && { ...queue.lastRun, at: iso(queue.lastRun.at) } })),
    failed: failed.map((job) => ({ ...job, failedAt: job.failedAt && iso(job.failedAt) })),
    open: open.map((job) => ({
      ...job,
      createdAt: iso(job.createdAt),
      startedAt: job.startedAt && iso(job.startedAt),
      nextTryAt: job.nextTryAt && iso(job.nextTryAt),
    })),
  };
}

export async function action(args: Route.ActionArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  const { jobs, env } = args.context.get(servicesContext);
  const form = parseForm(jobActionSchema, await args.request.formData());
  if (!form.ok) return formFailure(form, { ok: false as const });
  const { intent, queue, id } = form.data;
  const result = intent === "retry" ? await retryFailedJob({ db, jobs, queue, id }) : await cancelOpenJob({ db, jobs, queue, id });
  if (!result.ok) return formFailure(result, { ok: false as const });
  // Said by the root once the page's data reloads: the row leaves its list in that same reload.
  const said =
    intent === "retry"
      ? { message: "Job retried", description: `${result.queueLabel} runs it again shortly.` }
      : { message: "Job cancelled", description: `${result.queueLabel} will not run it.` };
  return dataWithToast<JobActionData>({ ok: true }, said, { appUrl: env.APP_URL });
}

/** Operators: the background jobs' queues, counted by state; the jobs that failed for good, to retry; the waiting and running ones, to cancel. */
export default function OperatorJobs({ loaderData: { queues, failed, open } }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Jobs"
        description="The background jobs, one queue each: a failed run is retried three times, then waits here for you; a run whose process ended is taken over by another. Finished jobs are kept six hours."
        actions={<OperatorNav />}
      />
      <section className="grid gap-3" aria-labelledby="queues-title">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="queues-title" className="text-lg font-semibold">
            Queues
          </h2>
          <Button type="button" variant="outline" size="sm" pending={revalidator.state !== "idle"} onClick={() => void revalidator.revalidate()}>
            <RefreshCw aria-hidden /> Refresh
          </Button>
        </div>
        <ul className="grid gap-3 lg:grid-cols-2">
          {queues.map((queue) => (
            <QueueCard key={queue.queue} queue={queue} />
          ))}
        </ul>
      </section>
      <section className="grid gap-3" aria-labelledby="failed-title">
        <h2 id="failed-title" className="text-lg font-semibold">
          Failed jobs
        </h2>
        {failed.length === 0 ? (
          <EmptyState icon={CircleCheck} title="No failed jobs">
            No job has failed in the last six hours.
          </EmptyState>
        ) : (
          <ul className="divide-y rounded-xl border">
            {failed.map((job) => (
              <FailedJobRow key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
      <section className="grid gap-3" aria-labelledby="open-title">
        <div className="grid gap-1">
          <h2 id="open-title" className="text-lg font-semibold">
            Waiting and running
          </h2>
          <p className="text-sm text-muted-foreground">
            Running jobs first, then the oldest waiting{open.length === OPEN_SHOWN ? ` (the first ${OPEN_SHOWN} shown)` : ""}. A cancelled job does not run; its
            queue sends a new one at its next tick or scheduled time.
          </p>
        </div>
        {open.length === 0 ? (
          <EmptyState icon={Hourglass} title="Nothing waits or runs">
            A job sent to a queue shows here until a worker has run it.
          </EmptyState>
        ) : (
          <ul className="divide-y rounded-xl border">
            {open.map((job) => (
              <OpenJobRow key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
