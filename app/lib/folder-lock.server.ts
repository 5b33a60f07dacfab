import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** A second process refused the data folder: one line naming the folder and the process that holds it. */
export class FolderInUseError extends Error {
  // Reported like a configuration error: one line, no stack (server/main.ts).
  override name = "ConfigError";
}

type Holder = { pid: number; started: string | null };

/** When a process started (Linux: /proc/<pid>/stat field 22), so a reused pid is not taken for the holder. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive({ pid, started }: Holder) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, someone else's.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = startTimeOf(pid);
  return started === null || now === null || now === started;
}

function readHolder(file: string): Holder | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (parsed && typeof parsed === "object" && "pid" in parsed && Number.isInteger(parsed.pid)) {
      return { pid: parsed.pid as number, started: "started" in parsed && typeof parsed.started === "string" ? parsed.started : null };
    }
  } catch {
    // Unreadable or half-written: treated as stale.
  }
  return null;
}

/**
 * Takes the data folder for this process alone: a lock file created exclusively, naming the
 * process (its pid and start time). A live holder refuses the start with one line; a dead one's
 * file (a crash, kill -9) is taken over at once. Returns the release, also run at exit.
 */
export function lockFolder(dir: string): () => void {
  const file = path.join(dir, "questline.lock");
  const me: Holder = { pid: process.pid, started: startTimeOf(process.pid) };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        if (readHolder(file)?.pid === me.pid) unlinkSync(file);
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && isAlive(holder)) {
      throw new FolderInUseError(`The data folder ${dir} is in use by process ${holder.pid}: stop it first, or give this one another DATA_DIR`);
    }
    // Stale: move it aside atomically; if a live holder's file was moved meanwhile, put it back.
    const aside = `${file}.${process.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside);
    if (moved && moved.pid !== holder?.pid && isAlive(moved)) {
      try {
        linkSync(aside, file);
      } catch {
        // Someone else holds it now; the next attempt says who.
      }
    }
    unlinkSync(aside);
  }
  throw new FolderInUseError(`The data folder ${dir} could not be locked: another process keeps taking it`);
}
