import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "./cluster.ts";
import { freePort } from "./throwaway-postgres.ts";

// The production build (npm run build) runs in each web process, on a throwaway PostgreSQL.
let cluster: Cluster;
const printed: string[] = [];
beforeAll(async () => {
  const output = new Writable({ write: (chunk: Buffer, _encoding, done) => void (printed.push(String(chunk)), done()) });
  cluster = await startCluster({ webs: 2, workers: 0, port: await freePort(), env: { LOCAL_CHAIN: "off", LOG_LEVEL: "warn" }, output });
}, 240_000);
afterAll(() => cluster?.stop());

const web = (name: string) => cluster.processes.find((p) => p.name === name)!;

async function until<T>(what: string, read: () => Promise<T | null> | T | null, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s:\n${printed.slice(-20).join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm run cluster", () => {
  it("leaves a web process killed from outside out of rotation, so no POST gets a 502, and starts another in its place", async () => {
    const victim = web("web-1");
    const pid = victim.process.commandPid()!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    // The cluster sees it end (a request in flight at that instant is lost, as behind any load balancer).
    await until("web-1 seen ended", () => (web("web-1").ready ? null : true));

    // While it is gone: every request, a POST too, is answered by the process that is left.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${cluster.url}/healthz`, { method: "POST", body: new URLSearchParams({ n: String(i) }) });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).not.toContain(502);

    // Another web-1 is started and, once it answers, is back in rotation.
    const replacement = await until("a new web-1 answering", () => {
      const current = web("web-1");
      return current !== victim && current.ready ? current : null;
    });
    expect(replacement.process.commandPid()).not.toBe(pid);
    expect((await fetch(`http://127.0.0.1:${replacement.port}/healthz`)).ok).toBe(true);
  }, 240_000);
});
