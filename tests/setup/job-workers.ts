import { spawn } from "node:child_process";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { CHILD_NODE_ENV } from "./job-child";

/** One line a worker child (tests/setup/job-worker-child.ts) printed: an event of its own, or a log line. */
export type WorkerEvent = { event?: string; queue?: string; id?: string; key?: string; at?: string; ok?: boolean; level?: number; msg?: string };

/** Every worker child still running, over all tests of the file: afterAll kills them by PID. */
const running = new Set<JobWorker>();

/**
 * A worker process running the `withdrawals` and `deposit-scan` queues' real handlers through the
 * job engine on the database at `databaseUrl`, for the local chain at `rpcUrl` (and the second
 * local chain, 31338, when `second` gives its node and contracts). Resolves once it is ready to take jobs.
 */
export async function startJobWorker({
  name,
  databaseUrl,
  rpcUrl,
  contracts,
  second,
  confirmations,
}: {
  name: string;
  databaseUrl: string;
  rpcUrl: string;
  contracts: ContractAddresses;
  second?: { rpcUrl: string; contracts: ContractAddresses };
  confirmations: number;
}) {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", name);
  const child = spawn(process.execPath, ["--import", "./scripts/app-paths.ts", "tests/setup/job-worker-child.ts"], {
    env: {
      ...process.env,
      ...CHILD_NODE_ENV,
      CHILD_DATABASE_URL: url.toString(),
      CHILD_RPC_URL: rpcUrl,
      CHILD_CONTRACTS: JSON.stringify(contracts),
      ...(second ? { CHILD_SECOND_RPC_URL: second.rpcUrl, CHILD_SECOND_CONTRACTS: JSON.stringify(second.contracts) } : {}),
      CHILD_CONFIRMATIONS: String(confirmations),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
  let ended: string | null = null;
  void exited.then((how) => {
    ended = how;
    running.delete(worker);
    for (const waiter of [...waiters]) waiter.fail(new Error(`worker ${name} ended (${how}) while the test waited for ${waiter.what}:\n${tail()}`));
  });
  /** Everything it printed, for a failure's message. */
  const lines: string[] = [];
  const tail = () => lines.slice(-30).join("\n");
  const waiters = new Set<{ what: string; match: (event: WorkerEvent) => boolean; done: (event: WorkerEvent) => void; fail: (error: Error) => void }>();
  /** Jobs it runs now (started, not ended): id → queue. */
  const inHand = new Map<string, string>();
  /** Its error log lines not yet taken by the test. */
  const errors: string[] = [];
  let partial = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    const text = partial + chunk;
    const complete = text.split("\n");
    partial = complete.pop()!;
    for (const line of complete) take(line);
  });
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => lines.push(...chunk.split("\n").filter(Boolean)));

  function take(line: string) {
    if (!line.trim()) return;
    lines.push(line);
    let event: WorkerEvent;
    try {
      event = JSON.parse(line) as WorkerEvent;
    } catch {
      return;
    }
    if (event.event === "start") inHand.set(event.id!, event.queue!);
    if (event.event === "end") inHand.delete(event.id!);
    // pino's levels: 50 error, 60 fatal.
    if ((event.level ?? 0) >= 50) errors.push(`${name}: ${line}`);
    for (const waiter of [...waiters]) if (waiter.match(event)) waiter.done(event);
  }

  /** The next event `match` accepts, from now on. */
  function next(what: string, match: (event: WorkerEvent) => boolean, timeoutMs = 30_000, signal?: AbortSignal): Promise<WorkerEvent> {
    if (ended) return Promise.reject(new Error(`worker ${name} has ended (${ended}); the test waited for ${what}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => waiter.fail(new Error(`worker ${name}: no ${what} within ${timeoutMs} ms:\n${tail()}`)), timeoutMs);
      const abandoned = () => waiter.fail(new Error(`no longer waiting for ${what}`));
      signal?.addEventListener("abort", abandoned, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abandoned);
        waiters.delete(waiter);
      };
      const waiter = {
        what,
        match,
        done: (event: WorkerEvent) => (settle(), resolve(event)),
        fail: (error: Error) => (settle(), reject(error)),
      };
      waiters.add(waiter);
    });
  }

  /** Sends an IPC message ("arm", "arm:<chain id>" or "disarm") and waits for its acknowledgement. */
  async function tell(message: string) {
    const word = message.split(":")[0]!;
    const ack = next(`${word}ed`, (event) => event.event === `${word}ed`);
    child.send(message);
    await ack;
  }

  const worker = {
    name,
    pid: child.pid!,
    inHand,
    /** Takes the error lines it logged since the last call. */
    takeErrors: () => errors.splice(0),
    /** The next `stalled` line (after "arm"); `signal` gives up waiting. */
    stalled: (timeoutMs: number, signal?: AbortSignal) => next("a stalled withdrawals job", (event) => event.event === "stalled", timeoutMs, signal),
    /** The next withdrawals job (of the chain `chainId` only, when given) stalls. */
    arm: (chainId?: number) => tell(chainId === undefined ? "arm" : `arm:${chainId}`),
    disarm: () => tell("disarm"),
    /** SIGKILL, by its PID; resolves once it is gone. */
    kill: async () => {
      if (ended) return;
      process.kill(worker.pid, "SIGKILL");
      await exited;
    },
    /** SIGTERM (finishing the jobs in hand), then SIGKILL if it has not ended within 20 s. */
    stop: async () => {
      if (ended) return;
      process.kill(worker.pid, "SIGTERM");
      const timer = setTimeout(() => {
        if (!ended) process.kill(worker.pid, "SIGKILL");
      }, 20_000);
      await exited;
      clearTimeout(timer);
    },
    output: tail,
  };
  running.add(worker);
  try {
    // A limit for a worker that hangs, not a speed check: it imports the app, slow on a busy two-core machine.
    await next("its ready line", (event) => event.event === "ready", 120_000);
  } catch (error) {
    await worker.kill();
    throw error;
  }
  return worker;
}

export type JobWorker = Awaited<ReturnType<typeof startJobWorker>>;

/** Kills every worker child still running (after a failed test), by PID. */
export async function killJobWorkers() {
  await Promise.all([...running].map((worker) => worker.kill()));
}
