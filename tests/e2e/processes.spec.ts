// `npm start` on PostgreSQL runs one web process per core on one port (Node's cluster module) and
// one job process, under a supervisor (server/processes.ts). This starts the production build that
// way on a throwaway PostgreSQL of its own, beside the suite's app.

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, startThrowawayPostgres, type ThrowawayPostgres } from "../../scripts/throwaway-postgres.ts";
import { expect, test } from "./fixtures.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** The supervisor's children and the role each was given. */
function children(pid: number): { pid: number; role: string }[] {
  const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  if (!listed) return [];
  return listed.split(/\s+/).map((child) => {
    const environ = readFileSync(`/proc/${child}/environ`, "utf8").split("\0");
    return { pid: Number(child), role: environ.find((entry) => entry.startsWith("ROLE="))?.slice(5) ?? "?" };
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test.describe("npm start on several cores", () => {
  test.describe.configure({ timeout: 120_000 });
  let postgres: ThrowawayPostgres;
  let dataDir: string;
  const started: ChildProcess[] = [];

  test.beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    dataDir = mkdtempSync(path.join(tmpdir(), "questline-processes-"));
  });
  // Whatever a test left running (one that timed out included) is killed, its children with it.
  test.afterEach(async () => {
    for (const app of started.splice(0)) {
      if (app.exitCode !== null || app.signalCode !== null) continue;
      const exited = once(app, "exit");
      app.kill("SIGTERM");
      await exited;
    }
  });
  test.afterAll(async () => {
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` of the production build on two web processes, its output collected. */
  async function spawnApp(databaseUrl: string) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const app = spawn(process.execPath, ["server/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        WEB_PROCESSES: "2",
        LOCAL_CHAIN: "off",
        SEED_DEMO: "false",
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(app);
    let output = "";
    app.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    app.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    return { app, url, output: () => output };
  }

  /** The same, on the suite's PostgreSQL, once it says it started. */
  async function startApp() {
    const spawned = await spawnApp(postgres.url);
    await expect.poll(spawned.output, { timeout: 60_000 }).toContain("2 web processes and one job process");
    return spawned;
  }

  test("serves from two web processes beside a job process, replaces one that dies, and stops them all on SIGTERM", async () => {
    const { app, url, output } = await startApp();
    expect(output().match(/is running at/g), "one start line for the whole start").toHaveLength(1);
    const first = children(app.pid!);
    expect(first.map((child) => child.role).sort()).toEqual(["web", "web", "worker"]);
    expect((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);

    // A web process killed outright: the other keeps answering, and a new one takes its place.
    const victim = first.find((child) => child.role === "web")!;
    process.kill(victim.pid, "SIGKILL");
    // Once the supervisor knows (a connection handed over in the instant of the death is lost with it).
    await expect.poll(output, { timeout: 10_000 }).toContain("a web process ended; starting another");
    for (let i = 0; i < 10; i++)
      expect((await fetch(`${url}/healthz`, { headers: { connection: "close" }, signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    await expect.poll(() => children(app.pid!).filter((child) => child.role === "web" && child.pid !== victim.pid).length, { timeout: 30_000 }).toBe(2);

    const running = children(app.pid!);
    app.kill("SIGTERM");
    const [code] = (await once(app, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(running.filter((child) => alive(child.pid))).toEqual([]);
  });

  test("one scrape of /metrics adds up every process, whichever web process takes it", async () => {
    const { url } = await startApp();
    // Each on a connection of its own: the cluster hands them to both web processes in turn.
    const fresh = { connection: "close" };
    for (let i = 0; i < 30; i++) expect((await fetch(`${url}/healthz`, { headers: fresh })).status).toBe(200);
    // A request is counted when its response has finished on the server's side, which can come just
    // after the client read it: the last one may be a moment late.
    const healthzCount = /^http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} (\d+)$/m;
    await expect
      .poll(async () => Number(healthzCount.exec(await (await fetch(`${url}/metrics`, { headers: fresh })).text())?.[1] ?? 0), { timeout: 5_000 })
      .toBe(30);
    for (let scrape = 0; scrape < 4; scrape++) {
      const text = await (await fetch(`${url}/metrics`, { headers: fresh })).text();
      expect(text).toContain('metrics_processes{state="answered"} 3');
      expect(text).toContain('metrics_processes{state="missing"} 0');
      expect(text, "the requests of both web processes").toContain('http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 30');
      expect(text.match(/^nodejs_version_info\{/gm), "a figure every process has alike, once").toHaveLength(1);
      expect(text.match(/^# TYPE withdrawals gauge$/gm), "the database's figures, read once").toHaveLength(1);
      expect(text).toMatch(/^withdrawals\{state="requested"\} \d+$/m);
    }
  });

  test("its processes end with the supervisor even when it is killed outright", async () => {
    const { app } = await startApp();
    const running = children(app.pid!);
    expect(running).toHaveLength(3);
    app.kill("SIGKILL");
    await once(app, "exit");
    await expect.poll(() => running.filter((child) => alive(child.pid)), { timeout: 20_000 }).toEqual([]);
  });

  test("a start that cannot work ends with a failure after three processes die before they listen", async () => {
    // Nothing listens on port 1: every process dies opening the database.
    const { app, output } = await spawnApp("postgres://nobody@127.0.0.1:1/questline");
    const [code] = (await once(app, "exit")) as [number | null];
    expect(code).toBe(1);
    expect(output()).toContain("3 processes in a row ended before they started: stopping");
  });
});
