import { startJobEngine } from "~/lib/job-engine.server";
import type { JobQueueName } from "~/modules/jobs/queues";
import { startJobs, type JobServices } from "../../server/jobs";

/**
 * The app's job engine on `deps.database`, running the named queues' real handlers in this
 * process, as a worker would. `stop` finishes the jobs in hand and stops the engine.
 */
export async function startJobRunner(deps: Omit<JobServices, "jobs">, options: { only?: JobQueueName[]; tick?: boolean } = {}) {
  const jobs = await startJobEngine({ connection: deps.database.jobConnection, runsJobs: true, logger: deps.logger });
  const stopJobs = await startJobs({ ...deps, jobs }, options);
  return {
    jobs,
    stop: async () => {
      await stopJobs();
      await jobs.stop({ graceful: true, timeout: 30_000 });
    },
  };
}
