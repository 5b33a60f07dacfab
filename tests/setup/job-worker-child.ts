// A worker process for the money property test on the job engine (money-workers.property.test.ts):
// opens the PostgreSQL database named by CHILD_DATABASE_URL, builds the chain registry for the
// anvil node at CHILD_RPC_URL and the contracts in CHILD_CONTRACTS (the local chain's operator,
// dev account 9, signs: the vault's operator) — and, given CHILD_SECOND_RPC_URL and
// CHILD_SECOND_CONTRACTS, the second local chain (31338) beside it —, starts the job engine and
// runs the `withdrawals` and `deposit-scan` queues' real handlers for each chain (no ticker: the
// test sends the jobs). It prints one JSON line per event on stdout — `ready`, `start`/`end` of
// each job it runs, `stalled` — beside the logger's own JSON lines (warnings and errors), and stops
// gracefully on SIGTERM.
//
// Armed by the message "arm" (over the IPC channel; acknowledged with `armed`), or "arm:<chain id>"
// for one chain's, the next withdrawals job it runs stops dead, for good, right after its chain's node took a payment's
// transaction (`after-send`: the withdrawal is `sending`, its answer never handled) or, if it sends
// none, once its handler is done but before the engine hears of it (`after-run`). The test then
// kills it with SIGKILL. "disarm" (acknowledged with `disarmed`) undoes an arming not used.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAddress, type Transport } from "viem";
import { z } from "zod";
import { openDatabase } from "~/lib/db.server";
import { startJobEngine, type JobEngine } from "~/lib/job-engine.server";
import { createLogger } from "~/lib/logger.server";
import { SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { loadEnv } from "~/services/env.server";
import { chainTransport } from "~/wallet/chain-config";
import { startJobs } from "../../server/jobs.ts";
import { localRegistry } from "./local-registry.ts";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => getAddress(value));
const contracts = z
  .string()
  .transform((text) => z.object({ QuestToken: address, TokenSale: address, DepositVault: address, AirdropDistributor: address }).parse(JSON.parse(text)));
const env = z
  .object({
    CHILD_DATABASE_URL: z.string().min(1),
    CHILD_RPC_URL: z.url(),
    CHILD_CONTRACTS: contracts,
    CHILD_SECOND_RPC_URL: z.url().optional(),
    CHILD_SECOND_CONTRACTS: contracts.optional(),
    CHILD_CONFIRMATIONS: z.coerce.number().int().positive(),
  })
  .parse(process.env);

const say = (event: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ event, ...fields }));

let armed = false;
/** The chain (its job key) whose withdrawals job stalls when armed; null: any chain's. */
let armedFor: string | null = null;
const armedAt = (key: string) => armed && (armedFor === null || armedFor === key);
/** The withdrawals job this process is running for each chain (by its key, the chain id), if any. */
const withdrawalJobs = new Map<string, string>();

/** Stops here for good: the event loop lives on (the engine's timers), the job stays in hand until the process is killed. */
function stall(at: "after-send" | "after-run", key: string): Promise<never> {
  armed = false;
  say("stalled", { queue: "withdrawals", id: withdrawalJobs.get(key), key, at });
  return new Promise<never>(() => {});
}

/** A chain's transport, stalling right after an armed withdrawals job of that chain had its `eth_sendRawTransaction` answered. */
function stallingTransport(inner: Transport, chainId: number): Transport {
  const key = String(chainId);
  return ((options: Parameters<Transport>[0]) => {
    const base = inner(options);
    return {
      ...base,
      request: async (args: { method: string; params?: unknown }) => {
        const result: unknown = await base.request(args);
        if (armedAt(key) && withdrawalJobs.has(key) && args.method === "eth_sendRawTransaction") await stall("after-send", key);
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
        return (queue: string, options: object, handler: (jobs: { id: string; data: { key: string } }[]) => Promise<unknown>) =>
          target.work(queue, options, async (jobs: { id: string; data: { key: string } }[]) => {
            const { id, data } = jobs[0]!;
            say("start", { queue, id, key: data.key });
            if (queue === "withdrawals") withdrawalJobs.set(data.key, id);
            try {
              const result = await handler(jobs);
              if (armedAt(data.key) && queue === "withdrawals") await stall("after-run", data.key);
              say("end", { queue, id, ok: true });
              return result;
            } catch (error) {
              say("end", { queue, id, ok: false });
              throw error;
            } finally {
              if (queue === "withdrawals") withdrawalJobs.delete(data.key);
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
  transport: stallingTransport(chainTransport([env.CHILD_RPC_URL]), 31337),
  others:
    env.CHILD_SECOND_RPC_URL && env.CHILD_SECOND_CONTRACTS
      ? [
          {
            id: SECOND_LOCAL_CHAIN_ID,
            transport: stallingTransport(chainTransport([env.CHILD_SECOND_RPC_URL]), SECOND_LOCAL_CHAIN_ID),
            contracts: env.CHILD_SECOND_CONTRACTS,
            confirmations: env.CHILD_CONFIRMATIONS,
          },
        ]
      : [],
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
  armed = typeof message === "string" && message.startsWith("arm");
  armedFor = armed && message !== "arm" ? String(message).slice("arm:".length) : null;
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
