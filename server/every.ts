/** Runs `job` now and then every `ms`, never two at once; the returned stop waits for a run in progress. */
export function every(ms: number, job: () => Promise<void>, onError: (err: unknown) => void) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= job()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, ms);
  timer.unref();
  run();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
