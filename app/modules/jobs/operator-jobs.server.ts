import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "~/lib/db.server";
import { isUniqueViolation } from "~/lib/db-errors";
import { JOB_SCHEMA, type JobEngine } from "~/lib/job-engine.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import {
  FAILED_SHOWN,
  JOB_STATE_WORDS,
  OPEN_JOB_STATES,
  OPEN_SHOWN,
  TAKEN_OVER_MESSAGES,
  jobKeyLabel,
  wasTakenOver,
  type FailedJob,
  type JobState,
  type OpenJob,
  type QueueSummary,
} from "./operator-jobs";
import { JOB_QUEUES, JOB_QUEUE_NAMES, type JobQueueName } from "./queues";

/*
 * The operators' view of the job engine (/operator/jobs): exact counts and the jobs themselves,
 * read with SQL from the engine's own table (its queue counts are a cache), and its retry and
 * cancel. One query per section, whatever the number of rows.
 */

/** How much of an error message the page shows; the stack never leaves the database. */
export const MESSAGE_LENGTH = 300;

const job = sql.raw(`${JOB_SCHEMA}.job`);
const catalogued = () =>
  sql`name in (${sql.join(
    JOB_QUEUE_NAMES.map((name) => sql`${name}`),
    sql`, `,
  )})`;

/** A job whose last run was taken over (its process ended), told by its stored error message. */
const takenOver = () =>
  sql`coalesce(output->>'message' in (${sql.join(
    TAKEN_OVER_MESSAGES.map((message) => sql`${message}`),
    sql`, `,
  )}), false)`;

const num = (value: unknown) => Number(value ?? 0);
const when = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date));

/** An error message as the page shows it: one paragraph, cut to MESSAGE_LENGTH characters. */
export function shortMessage(message: unknown): string {
  const text = typeof message === "string" ? message.replace(/\s+/g, " ").trim() : "";
  if (!text) return "No error message was recorded.";
  return text.length > MESSAGE_LENGTH ? `${text.slice(0, MESSAGE_LENGTH - 1).trimEnd()}…` : text;
}

/** Every queue of the catalogue, in its order, with its jobs counted by state (one query). */
export async function jobQueueSummaries({ db }: { db: Db }): Promise<QueueSummary[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select name,
        count(*) filter (where state = 'created')::int as created,
        count(*) filter (where state = 'retry')::int as retry,
        count(*) filter (where state = 'active')::int as active,
        count(*) filter (where state = 'completed')::int as completed,
        count(*) filter (where state = 'failed' and not ${takenOver()})::int as failed,
        count(*) filter (where state in ('retry', 'failed') and ${takenOver()})::int as taken_over,
        count(*) filter (where state = 'cancelled')::int as cancelled,
        floor(extract(epoch from now() - min(created_on) filter (where state in ('created', 'retry'))))::int as oldest_queued_seconds,
        max(completed_on) filter (where state = 'completed') as last_completed,
        max(completed_on) filter (where state = 'failed' and not ${takenOver()}) as last_failed
      from ${job}
      where ${catalogued()}
      group by name`),
  );
  const byName = new Map(rows.map((row) => [String(row.name), row]));
  return JOB_QUEUE_NAMES.map((queue) => {
    const row = byName.get(queue);
    const completedAt = when(row?.last_completed);
    const failedAt = when(row?.last_failed);
    const lastRun =
      completedAt && (!failedAt || completedAt >= failedAt) ? { at: completedAt, failed: false } : failedAt ? { at: failedAt, failed: true } : null;
    return {
      queue,
      ...JOB_QUEUES[queue],
      counts: {
        queued: num(row?.created) + num(row?.retry),
        retrying: num(row?.retry),
        active: num(row?.active),
        completed: num(row?.completed),
        failed: num(row?.failed),
        takenOver: num(row?.taken_over),
        cancelled: num(row?.cancelled),
      },
      oldestQueuedSeconds: row?.oldest_queued_seconds === null || row?.oldest_queued_seconds === undefined ? null : Math.max(0, num(row.oldest_queued_seconds)),
      lastRun,
    };
  });
}

const keyOf = (row: Record<string, unknown>) => (row.key === null || row.key === undefined ? null : String(row.key));
const queueOf = (row: Record<string, unknown>) => String(row.name) as JobQueueName;

/** The last jobs that failed for good (retries spent), newest first, across the catalogue's queues (one query); not those taken over. */
export async function lastFailedJobs({ db, limit = FAILED_SHOWN }: { db: Db; limit?: number }): Promise<FailedJob[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select id, name, coalesce(singleton_key, data->>'key') as key, completed_on, retry_count,
        left(output->>'message', ${MESSAGE_LENGTH * 4}) as message
      from ${job}
      where state = 'failed' and not ${takenOver()} and ${catalogued()}
      order by completed_on desc nulls last, id
      limit ${limit}`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    queue: queueOf(row),
    queueLabel: JOB_QUEUES[queueOf(row)].label,
    key: keyOf(row),
    keyLabel: jobKeyLabel(keyOf(row)),
    failedAt: when(row.completed_on),
    tries: num(row.retry_count) + 1,
    message: shortMessage(row.message),
  }));
}

/** The jobs an operator can still cancel: running ones first, then the oldest waiting (one query). */
export async function openJobs({ db, limit = OPEN_SHOWN }: { db: Db; limit?: number }): Promise<OpenJob[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select id, name, coalesce(singleton_key, data->>'key') as key, state, retry_count, created_on, started_on, start_after,
        case when state = 'retry' then left(output->>'message', ${MESSAGE_LENGTH * 4}) end as last_error
      from ${job}
      where state in ('created', 'retry', 'active') and ${catalogued()}
      order by (state = 'active') desc, created_on, id
      limit ${limit}`),
  );
  return rows.map((row) => {
    const state = String(row.state) as OpenJob["state"];
    const takenOverRun = state === "retry" && wasTakenOver(row.last_error);
    return {
      id: String(row.id),
      queue: queueOf(row),
      queueLabel: JOB_QUEUES[queueOf(row)].label,
      key: keyOf(row),
      keyLabel: jobKeyLabel(keyOf(row)),
      state,
      stateWords: takenOverRun ? "taken over, waiting to run again" : JOB_STATE_WORDS[state],
      createdAt: when(row.created_on)!,
      startedAt: state === "active" ? when(row.started_on) : null,
      nextTryAt: state === "retry" ? when(row.start_after) : null,
      // The engine counts a retry when its run starts: a waiting job has had none, the others their retries and the first.
      tries: state === "created" ? 0 : num(row.retry_count) + 1,
      lastError: state === "retry" && !takenOverRun ? shortMessage(row.last_error) : null,
      takenOver: takenOverRun,
    };
  });
}

/** What an operator's Retry or Cancel button sends. */
export const jobActionSchema = z.object({
  intent: z.enum(["retry", "cancel"], "Choose Retry or Cancel."),
  queue: z.enum(JOB_QUEUE_NAMES as [JobQueueName, ...JobQueueName[]], "Choose a queue of the list."),
  id: z.uuid("This is not a job's id."),
});

export type JobAction = z.infer<typeof jobActionSchema>;

async function stateOf(db: Db, queue: JobQueueName, id: string): Promise<JobState | null> {
  const [row] = rowsOf(await db.execute(sql`select state from ${job} where name = ${queue} and id = ${id}`));
  return row ? (String(row.state) as JobState) : null;
}

const missing = (queue: JobQueueName) =>
  failure("not_found", `No such job in the ${JOB_QUEUES[queue].label} queue: it may have been removed (finished jobs are kept six hours).`);

/** How many jobs a retry or cancel changed: pg-boss 12.38 returns `{ affected }` but declares its type empty. */
const affectedBy = (response: object) => Number((response as { affected?: unknown }).affected ?? 0);

type JobDone = Ok<{ queue: JobQueueName; queueLabel: string }>;

/** Runs a job that failed for good once more (it waits to retry at once); any other state is refused, unchanged. */
export async function retryFailedJob({ db, jobs, queue, id }: { db: Db; jobs: JobEngine; queue: JobQueueName; id: string }): Promise<JobDone | CodedFailure> {
  const state = await stateOf(db, queue, id);
  if (!state) return missing(queue);
  if (state !== "failed") return failure("conflict", `This job has not failed: it is ${JOB_STATE_WORDS[state]}. Reload the page.`);
  let affected: number;
  try {
    affected = affectedBy(await jobs.retry(queue, id));
  } catch (error) {
    // One job per key and state at a time (the queues are `stately`): another is waiting to retry.
    if (isUniqueViolation(error))
      return failure("conflict", "Another job of this queue for the same key is already waiting to retry. Let it run, then retry this one.");
    throw error;
  }
  if (affected === 0) return failure("conflict", "This job changed meanwhile. Reload the page.");
  return ok({ queue, queueLabel: JOB_QUEUES[queue].label });
}

/** Cancels a job that is waiting, waiting to retry or running; a finished one is refused, unchanged. */
export async function cancelOpenJob({ db, jobs, queue, id }: { db: Db; jobs: JobEngine; queue: JobQueueName; id: string }): Promise<JobDone | CodedFailure> {
  const state = await stateOf(db, queue, id);
  if (!state) return missing(queue);
  if (!(OPEN_JOB_STATES as readonly JobState[]).includes(state))
    return failure("conflict", `This job has already finished: it is ${JOB_STATE_WORDS[state]}. Reload the page.`);
  const affected = affectedBy(await jobs.cancel(queue, id));
  if (affected === 0) return failure("conflict", "This job finished meanwhile. Reload the page.");
  return ok({ queue, queueLabel: JOB_QUEUES[queue].label });
}
