import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, Gauge, Registry } from "prom-client";
import { z } from "zod";

/**
 * One scrape of every process `npm start` runs (server/processes.ts). The web processes share one
 * port, so a scraper reaches whichever takes its connection; that process asks the supervisor,
 * which asks every process for its own figures (each answers from its per-process registry, which
 * reads nothing from the database) and adds them up with prom-client's aggregation: request counts
 * and memory summed. The figures read from the database and the chains are read once, by the
 * process that took the scrape (server/metrics.ts). A process that does not answer within
 * SCRAPE_WAIT_MS is left out of that scrape, and `metrics_processes` says how many answered.
 */

export const SCRAPE_WAIT_MS = 3_000;

const asked = z.object({ questline: z.literal("scrape"), id: z.number().int() });
const askedOne = z.object({ questline: z.literal("scrape-one"), id: z.number().int() });
const reply = z.object({ questline: z.literal("scrape-reply"), id: z.number().int(), metrics: z.array(z.looseObject({ name: z.string() })) });
const answer = z.object({ questline: z.literal("scrape-answer"), id: z.number().int(), text: z.string() });

type MetricsJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

/** In a process the supervisor forked: answers the supervisor's requests for this process's figures. */
export function answerScrapes(registry: Registry) {
  if (!cluster.isWorker || !process.send) return;
  process.on("message", (message: unknown) => {
    const parsed = askedOne.safeParse(message);
    if (!parsed.success) return;
    void registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ questline: "scrape-reply", id: parsed.data.id, metrics }),
      () => process.send?.({ questline: "scrape-reply", id: parsed.data.id, metrics: [] }),
    );
  });
}

let nextScrape = 0;

/** In a process the supervisor forked: every process's figures added up, in Prometheus' text format; null when not supervised. */
export function scrapeAll(): Promise<string> | null {
  if (!cluster.isWorker || !process.send) return null;
  const id = ++nextScrape;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the supervisor did not answer the scrape"));
    }, SCRAPE_WAIT_MS * 2);
    const onMessage = (message: unknown) => {
      const parsed = answer.safeParse(message);
      if (!parsed.success || parsed.data.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve(parsed.data.text);
    };
    process.on("message", onMessage);
    process.send!({ questline: "scrape", id });
  });
}

/**
 * In the supervisor: answers a process's `scrape` with every listed process's figures added up.
 * Call it with each message a process sends; it ignores the others.
 */
export function scrapeForProcess(from: Worker, message: unknown, processes: () => Worker[]) {
  const parsed = asked.safeParse(message);
  if (!parsed.success) return;
  void gather(processes()).then((text) => {
    if (from.isConnected()) from.send({ questline: "scrape-answer", id: parsed.data.id, text });
  });
}

let nextAsk = 0;

async function gather(processes: Worker[]): Promise<string> {
  const parts = await Promise.all(processes.map((worker) => figuresOf(worker)));
  const answered = parts.filter((part): part is MetricsJson => part !== null);
  const tally = new Registry();
  const processCount = new Gauge({
    name: "metrics_processes",
    help: "Processes whose figures this scrape adds up (answered) and those that did not answer in time (missing).",
    labelNames: ["state"] as const,
    registers: [tally],
  });
  processCount.set({ state: "answered" }, answered.length);
  processCount.set({ state: "missing" }, parts.length - answered.length);
  return AggregatorRegistry.aggregate([...answered, await tally.getMetricsAsJSON()]).metrics();
}

/** One process's figures, or null when it does not answer in time. */
function figuresOf(worker: Worker): Promise<MetricsJson | null> {
  if (!worker.isConnected()) return Promise.resolve(null);
  const id = ++nextAsk;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), SCRAPE_WAIT_MS);
    const onMessage = (message: unknown) => {
      const parsed = reply.safeParse(message);
      if (parsed.success && parsed.data.id === id) done(parsed.data.metrics as unknown as MetricsJson);
    };
    const onExit = () => done(null);
    const done = (figures: MetricsJson | null) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      resolve(figures);
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    try {
      worker.send({ questline: "scrape-one", id });
    } catch {
      done(null);
    }
  });
}
