import { spawn, type ChildProcessByStdio, type StdioOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";

/**
 * The command runs in the background of a shell, beside a `cat` reading the shell's standard
 * input, a pipe from this process. When this process ends in any way (SIGKILL included) the pipe
 * closes, `cat` returns and the command is stopped: nothing outlives the process that started it.
 * The shell itself waits for the command and exits with its status. (A background job of a
 * non-interactive shell ignores SIGINT and reads /dev/null unless told otherwise, hence the pipe
 * handed to `cat` as descriptor 3; the command's output still comes to us.)
 */
const WATCHDOG = 'trap "" INT; exec 3<&0; "$@" </dev/null 3<&- & pid=$!; (cat <&3 >/dev/null; kill $pid 2>/dev/null) & exec 3<&-; wait $pid';

export type TiedProcess = {
  /** The watchdog shell; its stdout and stderr are the command's. */
  child: ChildProcessByStdio<Writable, Readable | null, Readable | null>;
  /** Stops the command (SIGTERM through the watchdog, SIGKILL after a grace period) and resolves once it has exited. */
  stop: () => Promise<void>;
  /** The command's own pid (Linux, from /proc), e.g. to kill it without its watchdog. */
  commandPid: () => number | null;
};

/** Starts `command` tied to this process's life (see WATCHDOG). */
export function spawnTied(
  command: string,
  args: string[],
  { env, cwd, output = "pipe", graceMs = 5_000 }: { env?: NodeJS.ProcessEnv; cwd?: string; output?: "pipe" | "inherit" | "ignore"; graceMs?: number } = {},
): TiedProcess {
  const stdio: StdioOptions = ["pipe", output, output];
  const child = spawn("/bin/sh", ["-c", WATCHDOG, "watchdog", command, ...args], { stdio, env, cwd }) as TiedProcess["child"];
  const commandPid = () => {
    if (!child.pid) return null;
    try {
      const [first] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/);
      return first ? Number(first) : null;
    } catch {
      return null;
    }
  };
  return {
    child,
    // Closing the pipe is how the command is stopped (killing the shell would orphan it); one that
    // has not ended within `graceMs` (anvil waits for its open connections) is killed outright.
    stop: () =>
      new Promise<void>((resolve) => {
        const command = commandPid();
        child.stdin.end();
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => {
          if (command) killQuietly(command);
        }, graceMs);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
      }),
    commandPid,
  };
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
