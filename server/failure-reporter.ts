/**
 * For a job that fails every run while something it needs is down (a chain's node): reports the
 * first failure, then at most once per `quietMs` while failures go on, and the recovery once.
 */
export function failureReporter({
  report,
  recovered,
  quietMs = 60_000,
  now = Date.now,
}: {
  report: (err: unknown, failures: number) => void;
  recovered: (failures: number) => void;
  quietMs?: number;
  now?: () => number;
}) {
  let failures = 0;
  let reportedAt = 0;
  return {
    failed(err: unknown) {
      failures += 1;
      if (failures > 1 && now() - reportedAt < quietMs) return;
      reportedAt = now();
      report(err, failures);
    },
    succeeded() {
      if (failures > 0) recovered(failures);
      failures = 0;
    },
  };
}
