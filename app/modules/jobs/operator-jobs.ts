import { CHAIN_NAMES } from "~/wallet/chains";
import type { JobQueueName } from "./queues";

/**
 * What the operators' Jobs page and its server reads share (client-safe: no `.server` import).
 * A job's state as the engine stores it, and in the page's words.
 */
export const JOB_STATE_WORDS = {
  created: "waiting",
  retry: "waiting to retry",
  active: "running",
  completed: "completed",
  cancelled: "cancelled",
  failed: "failed",
} as const;

export type JobState = keyof typeof JOB_STATE_WORDS;

/**
 * What a run is failed with when another process takes it over because its own ended: ours (a
 * lease nobody holds, server/jobs.ts) or the engine's own once a heartbeat lapses. Such a run is
 * shown as taken over, not as a failure: the job runs again, and nothing was wrong with it.
 */
export const TAKEN_OVER_MESSAGE = "taken over: the process running it ended";
export const TAKEN_OVER_MESSAGES = [TAKEN_OVER_MESSAGE, "job heartbeat timeout"] as const;

/** Whether a job's last run ended by being taken over, by its stored error message. */
export const wasTakenOver = (message: unknown) => (TAKEN_OVER_MESSAGES as readonly unknown[]).includes(message);

/** The states a job can still be cancelled in: waiting, waiting to retry, running. */
export const OPEN_JOB_STATES = ["created", "retry", "active"] as const satisfies readonly JobState[];

/** The failed jobs shown, newest first (finished jobs are kept six hours). */
export const FAILED_SHOWN = 20;
/** The waiting and running jobs shown, running first, then oldest first. */
export const OPEN_SHOWN = 50;

/**
 * A queue's jobs by state, as the page shows them; `queued` counts the waiting and the retrying ones;
 * `takenOver` those whose last run was taken over (waiting to run again, or out of retries), which
 * `failed` leaves out.
 */
export type JobCounts = { queued: number; retrying: number; active: number; completed: number; failed: number; takenOver: number; cancelled: number };

/** A queue of the catalogue with its jobs counted by state. `When`: a Date on the server, its ISO string on the page. */
export type QueueSummary<When = Date> = {
  queue: JobQueueName;
  label: string;
  about: string;
  counts: JobCounts;
  /** How long the oldest waiting job has waited, in whole seconds; null when none waits. */
  oldestQueuedSeconds: number | null;
  /** When its last run ended, and whether it failed for good; null when none is kept. */
  lastRun: { at: When; failed: boolean } | null;
};

/** A job that failed for good: its retries spent. */
export type FailedJob<When = Date> = {
  id: string;
  queue: JobQueueName;
  queueLabel: string;
  key: string | null;
  keyLabel: string;
  failedAt: When | null;
  /** Runs it had: the first and its retries. */
  tries: number;
  /** The error's message, cut short (never its stack). */
  message: string;
};

/** A job waiting, waiting to retry or running: one an operator can cancel. */
export type OpenJob<When = Date> = {
  id: string;
  queue: JobQueueName;
  queueLabel: string;
  key: string | null;
  keyLabel: string;
  state: (typeof OPEN_JOB_STATES)[number];
  stateWords: string;
  createdAt: When;
  /** A running job: when its run started. */
  startedAt: When | null;
  /** A job waiting to retry: when it may run again. */
  nextTryAt: When | null;
  /** Runs it had so far (a running one's included). */
  tries: number;
  /** A job waiting to retry: its last error. */
  lastError: string | null;
  /** A job waiting to retry because its last run was taken over (its process ended). */
  takenOver: boolean;
};

/** What a job runs for, in words: a chain by its name and id ("BNB Smart Chain (56)"), or the whole platform. */
export function jobKeyLabel(key: string | null): string {
  if (!key || key === "all") return "whole platform";
  const chainId = /^\d+$/.test(key) ? Number(key) : null;
  if (chainId === null) return key;
  return `${CHAIN_NAMES[chainId] ?? "Chain"} (${chainId})`;
}
