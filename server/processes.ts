import cluster, { type Worker } from "node:cluster";
import type { Env } from "~/services/env.server";
import type { Logger } from "~/lib/logger.server";
import { restartPolicy } from "~/lib/restart-policy.server";
import { scrapeForProcess } from "./cluster-metrics";

/** A message a web process sends its supervisor once it listens: the line `npm start` prints. */
export type ListeningMessage = { questline: "listening"; startLine: string };

const STOP_GRACE_MS = 40_000;

/**
 * `npm start` on several cores (decision 032): this process only supervises. It forks
 * `env.webProcesses` web processes, which share the port through Node's cluster module (it hands
 * each new connection to the next one), and one job process (its /healthz on a port of its own);
 * a process that dies is started again. SIGTERM or SIGINT stops them all, each gracefully. A
 * scrape of /metrics is answered with every process's figures (server/cluster-metrics.ts).
 */
export function supervise(env: Env, logger: Logger) {
  const roles = new Map<number, "web" | "worker">();
  /** Processes that said they listen: one that dies before it does counts as a failed start. */
  const listened = new Set<number>();
  let stopping: { code: number } | null = null;
  const restarts = restartPolicy();
  let announced = false;

  const fork = (role: "web" | "worker") => {
    // Every process is told the address the supervisor worked out (the job process listens elsewhere).
    const worker = cluster.fork({ ROLE: role, WEB_PROCESSES: "1", APP_URL: env.APP_URL, ...(role === "worker" ? { PORT: "0" } : {}) });
    roles.set(worker.id, role);
    worker.on("message", (message: ListeningMessage) => {
      scrapeForProcess(worker, message, listeningProcesses);
      if (message?.questline !== "listening") return;
      listened.add(worker.id);
      restarts.ready();
      // Announced once every web process listens: until then a death could leave none answering.
      if (announced || [...listened].filter((id) => roles.get(id) === "web").length < env.webProcesses) return;
      announced = true;
      if (env.LOG_LEVEL !== "silent") console.log(`${message.startLine} · ${env.webProcesses} web processes and one job process`);
    });
  };

  const listeningProcesses = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker && listened.has(worker.id)));

  cluster.on("exit", (worker: Worker, code, signal) => {
    const role = roles.get(worker.id)!;
    roles.delete(worker.id);
    const started = listened.delete(worker.id);
    if (stopping) {
      if (roles.size === 0) process.exit(stopping.code);
      return;
    }
    logger.error({ pid: worker.process.pid, role, code, signal }, `a ${role} process ended; starting another`);
    if (!restarts.ended(started)) {
      logger.fatal(`${restarts.failedStartsLimit} processes in a row ended before they started: stopping`);
      stop(1);
      return;
    }
    // Not unref'd: with every process gone, this timer is what keeps the supervisor alive to start one.
    setTimeout(() => fork(role), restarts.delayMs);
  });

  const stop = (code = 0) => {
    if (stopping) return;
    stopping = { code };
    const force = setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(code || 1);
    }, STOP_GRACE_MS);
    force.unref();
    if (roles.size === 0) process.exit(code);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => stop());

  for (let i = 0; i < env.webProcesses; i++) fork("web");
  fork("worker");
}

/** In a process the supervisor forked: tells it the start line instead of printing it. */
export function announceListening(startLine: string): boolean {
  if (!cluster.isWorker || !process.send) return false;
  process.send({ questline: "listening", startLine } satisfies ListeningMessage);
  return true;
}
