// A worker process for the money property test on the job engine (money-workers.property.test.ts):
// opens the PostgreSQL database named by CHILD_DATABASE_URL, builds the chain registry for the
// anvil node at CHILD_RPC_URL and the contracts in CHILD_CONTRACTS (the local chain's operator,
// dev account 9, signs: the vault's operator), starts the job engine and runs the `withdrawals` and
// `deposit-scan` queues' real handlers (no ticker: the test sends the jobs). It prints one JSON
// line per event on stdout — `ready`, `start`/`end` of each job it runs, `stalled` — beside the
// logger's own JSON lines (warnings and errors), and stops gracefully on SIGTERM.
//
// Armed by the message "arm" (over the IPC channel; acknowledged with `armed`), the next
// withdrawals job it runs stops dead, for good, right after the node took a payment's transaction
// (`after-send`: the withdrawal is `sending`, its answer never handled) or, if it sends none, once
// its handler is done but before the engine hears of it (`after-run`). The test then kills it
// with SIGKILL. "disarm" (acknowledged with `disarmed`) undoes an arming not used.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAddress, type Transport } from "viem";
import { z } from "zod";
import { openDatabase } from "~/lib/db.server";
import { startJobEngine, type JobEngine } from "~/lib/job-engine.server";
import { createLogger } from "~/lib/logger.server";
import { loadEnv } from "~/services/env.server";
import { chainTransport } from "~/wallet/chain-config";
import { startJobs } from "../../server/jobs.ts";
import { localRegistry } from "./local-registry.ts";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => getAddress(value));
const env = z
  .object({
    CHILD_DATABASE_URL: z.string().min(1),
    CHILD_RPC_URL: z.url(),
    CHILD_CONTRACTS: z
      .string()
      .transform((text) => z.object({ QuestToken: address, TokenSale: address, DepositVault: address, AirdropDistributor: address }).parse(JSON.parse(text))),
    CHILD_CONFIRMATIONS: z.coerce.number().int().positive(),
  })
  .parse(process.env);

const say = (event: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ event, ...fields }));

let armed = false;
/** The withdrawals job this process is running, if any (one at a time: one chain). */
let withdrawalJob: string | null = null;

/** Stops here for good: the event loop lives on (the engine's timers), the job stays in hand until the process is killed. */
function stall(at: "after-send" | "after-run"): Promise<never> {
  armed = false;
  say("stalled", { queue: "withdrawals", id: withdrawalJob, at });
  return new Promise<never>(() => {});
}

/** The local chain's transport, stalling right after an armed withdrawals job's `eth_sendRawTransaction` was answered. */
function stallingTransport(inner: Transport): Transport {
  return ((options: Parameters<Transport>[0]) => {
    const base = inner(options);
    return {
      ...base,
      request: async (args: { method: string; params?: unknown }) => {
        const result: unknown = await base.request(args);
        if (armed && withdrawalJob && args.method === "eth_sendRawTransaction") await stall("after-send");
        return result;
      },
    };
  }) as Transport;
}

/** The engine as startJobs sees it, with every handler reporting its jobs (and the withdrawals one stalling when armed). */
function reportingEngine(engine: JobEngine): JobEngine {
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === "work") {
        return (queue: string, options: object, handler: (jobs: { id: string }[]) => Promise<unknown>) =>
          target.work(queue, options, async (jobs: { id: string }[]) => {
            const id = jobs[0]!.id;
            say("start", { queue, id });
            if (queue === "withdrawals") withdrawalJob = id;
            try {
              const result = await handler(jobs);
              if (armed && queue === "withdrawals") await stall("after-run");
              say("end", { queue, id, ok: true });
              return result;
            } catch (error) {
              say("end", { queue, id, ok: false });
              throw error;
            } finally {
              if (queue === "withdrawals") withdrawalJob = null;
            }
          });
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), "questline-job-worker-"));
const logger = createLogger("warn");
const database = await openDatabase({ databaseUrl: env.CHILD_DATABASE_URL, dataDir: null });
const chains = localRegistry({
  url: env.CHILD_RPC_URL,
  contracts: env.CHILD_CONTRACTS,
  confirmations: env.CHILD_CONFIRMATIONS,
  transport: stallingTransport(chainTransport([env.CHILD_RPC_URL])),
});
const jobs = await startJobEngine({ connection: database.jobConnection, runsJobs: true, logger });
const stopJobs = await startJobs(
  { database, logger, env: loadEnv({ DATA_DIR: dataDir }), chains, jobs: reportingEngine(jobs) },
  {
    only: ["withdrawals", "deposit-scan"],
    tick: false,
  },
);

process.on("message", (message) => {
  armed = message === "arm";
  say(armed ? "armed" : "disarmed");
});
process.once("SIGTERM", () => {
  void (async () => {
    await stopJobs();
    await jobs.stop({ graceful: true, timeout: 10_000 });
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    say("stopped");
    process.exit(0);
  })();
});
say("ready", { pid: process.pid });
