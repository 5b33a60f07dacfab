import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express, type RequestHandler } from "express";
import { createRequestHandler as createDocumentHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { loadEnv, type Env } from "~/services/env.server";
import { createLogger } from "~/lib/logger.server";
import { createServices, localChainNodes, servicesContext, type Services } from "~/services/services.server";
import { nonceContext } from "~/lib/nonce";
import { bodyLimit, clientAddress, oneLoopbackName, originFormTargets, plainAddressesOnly, requestLog, sameOriginOnly, securityHeaders } from "./http";
import { createQueues, startJobs } from "./jobs";
import { createMetrics } from "./metrics";
import { pagesRenderedOnce, pathsReadingNothing } from "./pages-rendered-once";
import { answerScrapes } from "./cluster-metrics";
import { announceListening, supervise } from "./processes";
import { apiRequests } from "./api-requests";
import { withServerRouteMatching } from "./route-matching";
import { routePatternContext, type RoutePatternSlot } from "~/lib/route-pattern.server";
import { hasProjects, seedDemo } from "~/modules/demo/seed.server";
import { openDatabase } from "~/lib/db.server";
import { createChainRegistry } from "~/modules/chain/chain-registry.server";

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * `npm start`: one process doing what its ROLE says, or, where several can share the database and
 * there is more than one core, a supervisor of web processes and a job process (server/processes.ts).
 */
export async function run() {
  const env = loadEnv();
  if (env.webProcesses > 1 && cluster.isPrimary) {
    supervise(env, createLogger(env.LOG_LEVEL));
    return;
  }
  await start();
}

/**
 * Starts Questline: configuration, database (migrated), mail, auth, the job engine, and by role
 * (ROLE or `--role`) the HTTP server with the pages (`web`), the background jobs with only
 * /healthz (`worker`), or both (`all`, the default). Resolves once it listens; SIGTERM/SIGINT stop
 * it gracefully, finishing the jobs in hand.
 */
export async function start({ vite }: { vite?: ViteDevServer } = {}) {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const services = await createServices({ env, logger });
  if (env.SEED_DEMO === "true") {
    // Processes started together on one empty database: the first seeds, the others find projects.
    await services.database.exclusively(async (db) => {
      if (await hasProjects(db)) return;
      logger.info("empty database: seeding the demo (SEED_DEMO=false to skip)");
      const started = performance.now();
      const seeded = await seedDemo({
        db,
        chains: services.chains,
        reach: { tokenKey: env.social.tokenKey, appUrl: env.APP_URL, isPublic: env.isPublic },
        community: { social: env.social, isPublic: env.isPublic },
      });
      logger.info({ ...seeded, ms: Math.round(performance.now() - started) }, "demo seeded");
    });
  }

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", { none: false, loopback: "loopback", all: true }[env.TRUST_PROXY]);
  app.use(requestLog(logger));
  // Every process answers /metrics (METRICS_TOKEN; unless served publicly, loopback too), before the pages' middleware.
  const metrics = createMetrics({ database: services.database, chains: services.chains, logger, token: env.METRICS_TOKEN, isPublic: env.isPublic });
  answerScrapes(metrics.registry);
  app.use(metrics.observe);
  app.get("/metrics", metrics.handler);
  if (env.ROLE === "worker") app.get("/healthz", healthz(services));
  else await serveApp(app, services, vite);

  // A web process runs no job; it creates the queues (a no-op when they exist) for the operators' page.
  const stopJobs = env.ROLE === "web" ? await createQueues(services).then(() => async () => {}) : await startJobs(services);
  const server: Server = createServer(originFormTargets(app));
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  logger.info({ url: env.APP_URL, host: env.HOST, port: env.PORT, role: env.ROLE }, `${env.APP_NAME} is listening`);
  const line = startLine(env, services.chains.config.localRpcs);
  if (!announceListening(line) && env.LOG_LEVEL !== "silent") console.log(line);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info("shutting down");
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      force.unref();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await stopJobs();
      await vite?.close();
      await services.close();
      logger.info("stopped");
    })());
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
  return { server, stop };
}

/** The pages: security middleware, static files (or Vite in development) and React Router. */
async function serveApp(app: Express, services: Services, vite: ViteDevServer | undefined) {
  const { env, logger } = services;
  app.use(plainAddressesOnly());
  app.use(oneLoopbackName(env));
  app.use(clientAddress());
  app.use(securityHeaders(env, { dev: Boolean(vite), localRpcs: Object.values(services.chains.config.localRpcs) }));
  // Compressed only when the client asks (compression also skips bodies under 1 KiB); no wrapping otherwise.
  const compress = compression();
  app.use((req, res, next) => (req.headers["accept-encoding"] ? compress(req, res, next) : next()));

  if (vite) {
    app.use(vite.middlewares);
  } else {
    const client = path.resolve("build/client");
    app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(topLevelFiles(client));
  }

  app.use(sameOriginOnly(env, logger));
  app.use(bodyLimit());
  const loadContext = (nonce: string, slot: RoutePatternSlot) =>
    new RouterContextProvider(
      new Map<Parameters<RouterContextProvider["get"]>[0], unknown>([
        [servicesContext, services],
        [nonceContext, nonce],
        // Where React Router writes the matched route's pattern, for the request duration metric.
        [routePatternContext, slot],
      ]),
    );
  // In production the build is loaded once: handed a function, React Router would call it, and
  // rebuild its route tables from the result, on every request.
  const build: ServerBuild | null = vite ? null : withServerRouteMatching(await import("virtual:react-router/server-build"));
  if (build) {
    // The public API from its route modules, ahead of the pages' request handler (decision 062).
    app.use(apiRequests({ build, context: (nonce) => loadContext(nonce, {}) }));
    const renderDocument = createDocumentHandler(build, process.env.NODE_ENV);
    app.use(
      pagesRenderedOnce({
        paths: pathsReadingNothing(build.routes),
        logger,
        render: async (page, nonce) => {
          const slot: RoutePatternSlot = {};
          const response = await renderDocument(new Request(new URL(page, env.APP_URL)), loadContext(nonce, slot));
          return { response, pattern: slot.routePattern };
        },
      }),
    );
  }
  app.use(
    createRequestHandler({
      build: build ?? (() => vite!.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>),
      getLoadContext: (_req, res) => loadContext(res.locals.nonce as string, res.locals),
    }),
  );
}

/**
 * The build's top-level files (the favicon): served by name, so a page's request is not first
 * looked up on disk (express.static would stat every path it is handed).
 */
function topLevelFiles(folder: string): RequestHandler {
  const names = new Set(
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${entry.name}`),
  );
  const serve = express.static(folder, { maxAge: "1h", index: false });
  return (req, res, next) => (names.has(req.path) ? serve(req, res, next) : next());
}

/** A worker's health: 200 while the database answers, 503 otherwise (the pages' /healthz says the same). */
function healthz({ database, logger }: Services): RequestHandler {
  return async (_req, res) => {
    res.set("cache-control", "no-store");
    try {
      await database.ping();
      res.json({ status: "ok" });
    } catch (err) {
      logger.error({ err }, "health check: the database does not answer");
      res.status(503).json({ status: "unavailable" });
    }
  };
}

/** One plain line for a person reading the terminal: where the app is, and in the local trial its inbox and chain. */
function startLine(env: Env, localRpcs: Partial<Record<number, string>>) {
  if (env.ROLE === "worker") return `${env.APP_NAME} worker is running the jobs · health http://${env.HOST}:${env.PORT}/healthz`;
  const parts = [`${env.APP_NAME} is running at ${env.APP_URL}`];
  if (!env.isPublic && !env.SMTP_URL) parts.push(`dev inbox ${env.APP_URL}/dev/mail`);
  for (const [chainId, url] of Object.entries(localRpcs)) parts.push(`local chain ${chainId} ${url}`);
  return parts.join(" · ");
}

/**
 * `npm run seed`: seeds the demo into the configured database if it has no projects yet. Its part
 * on the local chain only with a chain that outlives this command (LOCAL_CHAIN_RPC_URL): a chain
 * started here would be gone with it.
 */
export async function seed() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const localChainUrls = env.localChain ? localChainNodes(env) : new Map<number, string>();
    const chains = localChainUrls.size > 0 ? await createChainRegistry({ env, localChainUrls, logger, database }) : null;
    const reach = { tokenKey: env.social.tokenKey, appUrl: env.APP_URL, isPublic: env.isPublic };
    const result = await database.exclusively((db) => seedDemo({ db, chains, reach, community: { social: env.social, isPublic: env.isPublic } }));
    logger.info(result, result.seeded ? "demo seeded" : "the database already has projects: nothing seeded");
  } finally {
    await database.close();
  }
}
