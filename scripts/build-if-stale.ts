// `npm start`'s build step: builds only when build/ is missing or older than something it is made
// from, so a second start is immediate. Run with `--check` to print "stale" or "current" only.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** Everything the build reads: sources, styles, public files, contracts' generated code, and the build's own configuration. */
const INPUTS = [
  "app",
  "server",
  "db",
  "public",
  "contracts/generated",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
const OUTPUT = path.join(root, "build/server/index.js");

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

export function buildIsCurrent() {
  if (!existsSync(OUTPUT)) return false;
  const built = statSync(OUTPUT).mtimeMs;
  return INPUTS.every((input) => newest(path.join(root, input)) <= built);
}

const current = buildIsCurrent();
if (process.argv.includes("--check")) {
  console.log(current ? "current" : "stale");
} else if (current) {
  console.log("The build is current: starting it without building again.");
} else {
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
