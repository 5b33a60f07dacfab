// How much JavaScript Questline's pages make the browser download: `npm run bundle-report`
// (also `npm run bench -- bundle`).
//
// Measures the production build in build/: run `npm run build` first after changing code (when
// build/ is missing, this script runs the build itself). It starts the production server
// (`node server/main.ts`, NODE_ENV unset: development configuration, so mail goes to the dev inbox
// and the local anvil chain starts) on 127.0.0.1:$BENCH_PORT (3300) with a fresh temporary
// DATA_DIR, and drives Chromium through:
//
//   welcome    first load of / signed out (fresh browser context, empty cache);
//   dashboard  first load of /dashboard signed in (fresh context, signed in over HTTP with an
//              e-mail code read from the dev inbox);
//   wallet     on that dashboard, the JavaScript fetched when the wallet modal first opens
//              ("Connect wallet", until `w3m-modal` shows its card and the network is idle for
//              1.5 s), not counting what the page had already loaded.
//
// A size is the sum over every JavaScript response (scripts, module preloads, dynamic imports) of
// its body gzip-compressed here with node:zlib at the default level (6), so the figures do not
// depend on the server's compression. JavaScript inlined in the HTML is not counted. Reown's cloud
// is stubbed (the machine is offline; the app's CSP blocks most of it anyway): the project
// configuration answers without features, so AppKit uses our local `features` (e-mail, socials,
// swaps, on-ramp), as it does whenever the cloud is unreachable; other hosts are refused.
//
// Prints `BENCH <name> <value> KiB` on stdout; the largest files, the wallet's packages and the
// check that no first load (nor its modulepreload links) holds wallet code go to stderr as `#`
// lines. Options: `--runs N` measures N times on one server and prints medians; `--json FILE`
// writes every measured file. Exits with status 1 when a first load holds wallet code.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const ORIGIN = `http://localhost:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const IDLE_MS = 1_500;
const KIB = 1024;

type Asset = { url: string; raw: number; gzip: number };
type Measure = { welcome: Asset[]; dashboard: Asset[]; wallet: Asset[]; preloads: { welcome: string[]; dashboard: string[] } };
/** build/client/.vite/chunks.json, written by vite.config.ts: each chunk's modules and their rendered sizes. */
type Chunks = Record<string, { name: string; imports: string[]; dynamicImports: string[]; modules: Record<string, number> }>;

const log = (message: string) => void process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const total = (assets: Asset[]) => assets.reduce((sum, a) => sum + a.gzip, 0);
const kib = (bytes: number) => (bytes / KIB).toFixed(1);
const fileOf = (url: string) => new URL(url, ORIGIN).pathname.replace(/^\//, "");
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

// --- build -------------------------------------------------------------------------------------

function ensureBuild() {
  if (existsSync(path.join(ROOT, "build/server/index.js")) && existsSync(path.join(ROOT, "build/client"))) return;
  log("# build/ is missing: running `npm run build`");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error("npm run build failed");
}

function readChunks(): Chunks | null {
  const file = path.join(ROOT, "build/client/.vite/chunks.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Chunks) : null;
}

/** The npm package a module belongs to, or "app". */
function packageOf(moduleId: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleId);
  if (match) return match[1]!;
  return moduleId.includes("vite/preload-helper") || moduleId.startsWith("\0") ? "(bundler runtime)" : "app";
}

/** The wallet stack's packages: none of their code may reach a page's first load. */
const WALLET_PACKAGES =
  /^(viem|wagmi|ox|abitype|lit|lit-html|lit-element|valtio|qrcode|@reown\/.*|@walletconnect\/.*|@wagmi\/.*|@coinbase\/.*|@metamask\/.*|@base-org\/.*|@safe-global\/.*|@noble\/.*|@scure\/.*|@lit\/.*|@lit-labs\/.*|@msgpack\/.*|@phosphor-icons\/.*)$/;
/** Except viem's plain chain descriptions (`defineChain`, the chains we name), data the page shell uses (~1 KiB). */
const SHELL_ALLOWED = /node_modules\/viem\/_esm\/(utils\/chain\/defineChain|chains\/definitions\/\w+)\.js$/;

function walletModules(file: string, chunks: Chunks): string[] {
  return Object.keys(chunks[file]?.modules ?? {}).filter(
    (id) => (WALLET_PACKAGES.test(packageOf(id)) || /\/app\/wallet\/(appkit|universal-provider)\.client\.ts$/.test(id)) && !SHELL_ALLOWED.test(id),
  );
}

/** Each file's gzip size shared out over its packages in proportion to their rendered code. */
function byPackage(assets: Asset[], chunks: Chunks): [string, number][] {
  const sizes = new Map<string, number>();
  for (const asset of assets) {
    const modules = Object.entries(chunks[fileOf(asset.url)]?.modules ?? { "(not in chunks.json)": 1 });
    const rendered = modules.reduce((sum, [, size]) => sum + size, 0) || 1;
    for (const [id, size] of modules) {
      const pkg = id === "(not in chunks.json)" ? id : packageOf(id);
      sizes.set(pkg, (sizes.get(pkg) ?? 0) + (asset.gzip * size) / rendered);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

// --- server ------------------------------------------------------------------------------------

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

/** Starts the production server in its own process group (with the local chain it starts). */
async function startServer(dataDir: string, started: (child: ChildProcess) => void): Promise<void> {
  // Another server on the port would answer /healthz for ours (which would fail to listen).
  if (await answers(`${ORIGIN}/healthz`)) throw new Error(`something already answers on port ${PORT}: stop it or set BENCH_PORT`);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", APP_URL: ORIGIN, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  for (const name of ["NODE_ENV", "DATABASE_URL", "SMTP_URL"]) delete env[name];
  const child = spawn(process.execPath, ["server/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"], detached: true });
  started(child);
  process.once("exit", () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
    if (await answers(`${ORIGIN}/healthz`)) return;
    await sleep(250);
  }
  throw new Error(`the server did not answer /healthz within 60 s:\n${stderr}`);
}

/** SIGTERM (the server stops its workers and the local chain); SIGKILL to its process group after 15 s. */
async function stopServer(child: ChildProcess) {
  const pid = child.pid;
  if (pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-pid, "SIGKILL");
    }, 15_000);
    await exited;
    clearTimeout(timer);
  }
  // Whatever the server left in its process group (a local chain, if it stopped without stopping it).
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is empty
  }
}

// --- browser -----------------------------------------------------------------------------------

/** Reown's cloud, stubbed: minimal answers for its API; anything else outside this machine is refused. */
async function stubCloud(context: BrowserContext) {
  await context.route(/^https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (route) => {
    const url = new URL(route.request().url());
    const json = (body: unknown) =>
      route.fulfill({ status: 200, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: JSON.stringify(body) });
    if (url.hostname === "api.web3modal.org") {
      if (url.pathname === "/appkit/v1/config") return json({ features: null });
      if (url.pathname === "/appkit/v1/project-limits") return json({ planLimits: { tier: "starter", isAboveMauLimit: false, isAboveRpcLimit: false } });
      if (url.pathname === "/projects/v1/origins") return json({ allowedOrigins: [ORIGIN] });
      if (url.pathname === "/getWallets") return json({ count: 0, data: [] });
    }
    return route.abort("blockedbyclient");
  });
  await context.routeWebSocket(/^wss?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (ws) => ws.close());
}

function isJavaScript(response: Response) {
  const type = response.headers()["content-type"] ?? "";
  return /javascript|ecmascript/.test(type) || (response.request().resourceType() === "script" && /\.m?js(\?|$)/.test(response.url()));
}

/** Records a context's JavaScript responses, and tells when its network has been idle. */
function recorder(context: BrowserContext) {
  const assets = new Map<string, Asset>();
  const reading: Promise<void>[] = [];
  const inFlight = new Set<Request>();
  let lastActivity = Date.now();
  const done = (request: Request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
  };
  context.on("request", (request) => {
    inFlight.add(request);
    lastActivity = Date.now();
  });
  context.on("requestfinished", done);
  context.on("requestfailed", done);
  context.on("response", (response) => {
    const url = response.url();
    if (!isJavaScript(response) || response.status() !== 200 || assets.has(url)) return;
    reading.push(
      response.body().then(
        (body) => void assets.set(url, { url, raw: body.length, gzip: gzipSync(body).length }),
        () => undefined,
      ),
    );
  });
  return {
    /** Resolves once no request has been in flight for IDLE_MS (at most `timeout`). */
    async idle(timeout = 30_000) {
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline && (inFlight.size > 0 || Date.now() - lastActivity < IDLE_MS)) await sleep(100);
      await Promise.all(reading);
    },
    /** The JavaScript recorded since the last call. */
    take(): Asset[] {
      const list = [...assets.values()];
      assets.clear();
      return list;
    },
  };
}

const modulePreloads = (html: string) => [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);

async function signIn(context: BrowserContext, email: string) {
  const headers = { Origin: ORIGIN };
  const sent = await context.request.post(`${ORIGIN}/login`, { form: { intent: "send", email }, headers, maxRedirects: 0 });
  if (sent.status() >= 400) throw new Error(`sending the sign-in code failed: HTTP ${sent.status()}`);
  let code: string | undefined;
  for (let attempt = 0; attempt < 50 && !code; attempt++) {
    code = /code: (\d{6})/.exec(await (await context.request.get(`${ORIGIN}/dev/mail`)).text())?.[1];
    if (!code) await sleep(100);
  }
  if (!code) throw new Error("no sign-in code in the dev inbox");
  const checked = await context.request.post(`${ORIGIN}/login`, { form: { intent: "code", email, code }, headers, maxRedirects: 0 });
  if (checked.status() >= 400) throw new Error(`the sign-in code was refused: HTTP ${checked.status()}`);
}

async function firstLoad(page: Page, url: string, rec: ReturnType<typeof recorder>) {
  const response = await page.goto(url, { waitUntil: "load" });
  if (!response?.ok()) throw new Error(`${url}: HTTP ${response?.status()}`);
  const html = await response.text();
  await rec.idle();
  return { assets: rec.take(), preloads: modulePreloads(html) };
}

async function measure(browser: Browser, run: number): Promise<Measure> {
  const welcomeContext = await browser.newContext({ baseURL: ORIGIN });
  await stubCloud(welcomeContext);
  const welcome = await firstLoad(await welcomeContext.newPage(), "/", recorder(welcomeContext));
  await welcomeContext.close();

  const context = await browser.newContext({ baseURL: ORIGIN });
  await stubCloud(context);
  await signIn(context, `bench-${run}-${Date.now()}@example.com`);
  const rec = recorder(context);
  const page = await context.newPage();
  const dashboard = await firstLoad(page, "/dashboard", rec);
  if (new URL(page.url()).pathname !== "/dashboard") throw new Error(`the signed-in load of /dashboard ended on ${page.url()}`);
  const loaded = new Set(dashboard.assets.map((a) => a.url));

  await page.getByRole("banner").getByRole("button", { name: "Connect wallet" }).click();
  await page.locator('w3m-modal.open [data-testid="w3m-modal-card"]').waitFor({ state: "visible", timeout: 30_000 });
  await rec.idle();
  const wallet = rec.take().filter((a) => !loaded.has(a.url));
  await context.close();
  return { welcome: welcome.assets, dashboard: dashboard.assets, wallet, preloads: { welcome: welcome.preloads, dashboard: dashboard.preloads } };
}

// --- report ------------------------------------------------------------------------------------

function largest(title: string, assets: Asset[], limit: number) {
  const sorted = [...assets].sort((a, b) => b.gzip - a.gzip);
  log(`# ${title}: ${assets.length} files, ${kib(total(assets))} KiB gzip (${kib(assets.reduce((s, a) => s + a.raw, 0))} KiB raw)`);
  for (const a of sorted.slice(0, limit)) log(`#   ${kib(a.gzip).padStart(6)} KiB gzip ${kib(a.raw).padStart(7)} KiB raw  ${fileOf(a.url)}`);
  if (sorted.length > limit) log(`#   … ${sorted.length - limit} more files, ${kib(total(sorted.slice(limit)))} KiB gzip`);
}

/** Whether a first load (its files and its HTML's modulepreload links) is free of wallet code. */
function checkFirstLoad(name: string, assets: Asset[], preloads: string[], chunks: Chunks): boolean {
  const files = new Set([...assets.map((a) => fileOf(a.url)), ...preloads.map(fileOf)]);
  const leaked = [...files].flatMap((file) => walletModules(file, chunks).map((id) => `${file}: ${id}`));
  if (leaked.length === 0) {
    log(`# ${name}: no wallet code in the first load (${files.size} files, ${preloads.length} modulepreload links)`);
    return true;
  }
  log(`# ${name}: WALLET CODE IN THE FIRST LOAD (${leaked.length} modules):`);
  for (const line of leaked.slice(0, 20)) log(`#   ${line}`);
  return false;
}

async function main() {
  const runs = Math.max(1, Number(argValue("--runs") ?? 1));
  const jsonOut = argValue("--json");
  ensureBuild();
  const chunks = readChunks();
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-bench-"));
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    if (server) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().finally(() => process.exit(130)));
  try {
    await startServer(dataDir, (child) => (server = child));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const results: Measure[] = [];
    for (let run = 1; run <= runs; run++) results.push(await measure(browser, run));
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));

    const last = results.at(-1)!;
    largest("welcome first load", last.welcome, 8);
    largest("dashboard first load", last.dashboard, 8);
    largest("wallet open", last.wallet, 20);
    let clean = true;
    if (chunks) {
      const packages = (label: string, assets: Asset[], count: number) => {
        log(`# ${label} by package (each file's gzip size shared out by rendered code):`);
        for (const [pkg, size] of byPackage(assets, chunks).slice(0, count)) log(`#   ${kib(size).padStart(6)} KiB  ${pkg}`);
      };
      packages("welcome first load", last.welcome, 8);
      packages("dashboard first load", last.dashboard, 12);
      packages("wallet open", last.wallet, 20);
      clean = [
        checkFirstLoad("welcome", last.welcome, last.preloads.welcome, chunks),
        checkFirstLoad("dashboard", last.dashboard, last.preloads.dashboard, chunks),
      ].every(Boolean);
    } else {
      log("# build/client/.vite/chunks.json is missing (built without vite.config.ts's chunk list): no breakdown by package, no wallet-code check");
    }
    if (runs > 1) log(`# medians of ${runs} runs; wallet open per run: ${results.map((r) => kib(total(r.wallet))).join(", ")} KiB`);

    console.log(`BENCH js_first_load_welcome_kib ${kib(median(results.map((r) => total(r.welcome))))} KiB`);
    console.log(`BENCH js_first_load_dashboard_kib ${kib(median(results.map((r) => total(r.dashboard))))} KiB`);
    console.log(`BENCH js_wallet_open_kib ${kib(median(results.map((r) => total(r.wallet))))} KiB`);
    if (!clean) process.exitCode = 1;
  } finally {
    await stop();
  }
}

await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
