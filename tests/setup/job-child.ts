import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { vi } from "vitest";

/**
 * A job process for a SIGKILL fault test: `script` (a file in tests/setup/) run by Node with the
 * app's paths, its output kept. `stopsWhen` waits while it runs until `check` passes (it must not end
 * first); `kill` ends it with SIGKILL and says whether it finished its job before.
 */
export type JobChild = {
  child: ChildProcess;
  output: () => string;
  stopsWhen: (check: () => void | Promise<void>) => Promise<void>;
  /** Kills it (SIGKILL) and resolves with how it ended. */
  kill: () => Promise<NodeJS.Signals | number | null>;
  /** Kills it if it still runs (a test's `finally`). */
  stop: () => void;
};

/**
 * How long a test that starts a job process may take: a limit for one that hangs, not a speed
 * check. The process imports the app and opens the database, slow on a busy two-core machine.
 */
export const KILL_TEST_TIMEOUT_MS = 240_000;

/**
 * Node's compile cache for the processes the tests start (in node_modules/.cache, kept from run to
 * run; an entry is used only for the same source): each such process imports the app afresh, which
 * took 3.2–3.7 s on a busy machine and 1.9 s from the cache.
 */
export const CHILD_NODE_ENV = { NODE_COMPILE_CACHE: path.resolve(import.meta.dirname, "../../node_modules/.cache/questline/node-compile-cache") };

export function startJobChild(script: string, env: Record<string, string | undefined>): JobChild {
  const child = spawn(process.execPath, ["--import", "./scripts/app-paths.ts", script], {
    env: { ...process.env, ...CHILD_NODE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  return {
    child,
    output: () => output,
    stopsWhen: (check) =>
      vi.waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`The job process ended early: ${output}`);
          await check();
        },
        { timeout: 100_000, interval: 50 }, // The child process starts slowly on a busy machine.
      ),
    kill: () => {
      child.kill("SIGKILL");
      return exited;
    },
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
