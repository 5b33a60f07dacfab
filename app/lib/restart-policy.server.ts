/**
 * When a supervisor starts a process again after one of its processes ended: a second later, unless
 * `failedStartsLimit` processes in a row ended before they were ready (then the start itself is
 * broken and starting more would only loop). Shared by `npm start`'s supervisor (server/processes.ts)
 * and `npm run cluster` (scripts/cluster.ts).
 */
export function restartPolicy({ failedStartsLimit = 3, delayMs = 1_000 }: { failedStartsLimit?: number; delayMs?: number } = {}) {
  let failedStarts = 0;
  return {
    failedStartsLimit,
    /** How long to wait before starting the next process. */
    delayMs,
    /** A process is ready (it listens): the starts work. */
    ready: () => {
      failedStarts = 0;
    },
    /** A process ended, after it was ready or not: whether to start another in its place. */
    ended: (wasReady: boolean): boolean => {
      failedStarts = wasReady ? 0 : failedStarts + 1;
      return failedStarts < failedStartsLimit;
    },
  };
}
