// A throwaway PostgreSQL server (Debian's binaries) in a temporary folder, tied to this process:
// it is stopped and removed with `stop()`, and dies with this process however that ends.

import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { spawnTied } from "../app/lib/tied-process.server.ts";

export type ThrowawayPostgres = { url: string; stop: () => Promise<void> };

function serverBinaries() {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length > 0 ? path.join(root, versions.at(-1)!, "bin") : null;
  if (!bin || !existsSync(path.join(bin, "postgres")))
    throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql; install Debian's postgresql package.");
  return bin;
}

/** A free loopback port, as the system hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh server on a free port (`max_connections` for a cluster of processes, and any other
 * `settings`); resolves once it accepts connections.
 */
export async function startThrowawayPostgres({
  maxConnections = 200,
  settings = {},
}: { maxConnections?: number; settings?: Record<string, string> } = {}): Promise<ThrowawayPostgres> {
  const bin = serverBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), "questline-pg-"));
  const data = path.join(dir, "data");
  // PostgreSQL refuses to run as root: as root, it runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  const as = (command: string, args: string[]) =>
    asRoot ? { command: "setpriv", args: ["--reuid=postgres", "--regid=postgres", "--clear-groups", "--", command, ...args] } : { command, args };
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), Number(execFileSync("id", ["-g", "postgres"]).toString()));
  const init = as(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  execFileSync(init.command, init.args, { stdio: "ignore" });
  const port = await freePort();
  const server = as(path.join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    `max_connections=${maxConnections}`,
    ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ]);
  const postgres = spawnTied(server.command, server.args, { output: "ignore" });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || postgres.child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${String(error)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: async () => {
      await postgres.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
