// Every test, as `npm test` runs them: the checks and the build, then the suites that need the build
// (decision 049):
//
//   lint ─┐   ┌─ unit tests on PGlite ──────────────────────┐
//   build ┴───┤                                             ├─ e2e ─ e2e against the cluster
//             └─ unit tests on PostgreSQL ─ contracts' coverage ─┘
//
// The two Vitest passes share the two cores; the browser suites run alone, their waits being
// what a busy machine breaks first.
// Each stage's output streams with its name in front and is kept whole in .test-logs/.
// At the end: each stage's seconds, and the end of every failed stage's output. Exits 1 if any
// stage failed. A stage that needs a failed one (the build) does not run; one that only comes
// after it (to keep two suites at a time) still does.
//
//   node scripts/test-all.ts [--only name,name]   (names as in the table below)

import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, stripVTControlCharacters } from "node:util";

type Stage = {
  name: string;
  command: string;
  env?: Record<string, string>;
  /** Stages whose result this one uses: it runs only if they passed. */
  needs?: string[];
  /** Stages it waits for, whatever their result. */
  after?: string[];
};

const STAGES: Stage[] = [
  { name: "lint", command: "npm run lint" },
  { name: "build", command: "npm run build" },
  // scripts/cluster.test.ts runs the build's processes.
  { name: "unit tests on PGlite", command: "npx vitest run", needs: ["build"] },
  { name: "unit tests on PostgreSQL", command: "bash scripts/with-postgres.sh npx vitest run", needs: ["build"] },
  { name: "contracts' coverage", command: "npm run coverage:contracts", after: ["unit tests on PostgreSQL"] },
  { name: "e2e", command: "npx playwright test", needs: ["build"], after: ["unit tests on PGlite", "contracts' coverage"] },
  { name: "e2e against the cluster", command: "npx playwright test", env: { E2E_CLUSTER: "1" }, needs: ["build"], after: ["e2e"] },
];

const root = path.resolve(import.meta.dirname, "..");
// Beside test-results/, which Playwright empties when it starts.
const logs = path.join(root, ".test-logs");
const { values } = parseArgs({ options: { only: { type: "string" } } });
const only = values.only?.split(",").map((name) => name.trim());
const selected = only ? STAGES.filter((stage) => only.includes(stage.name)) : STAGES;
if (only && selected.length !== only.length) {
  console.error(`Unknown stage in --only. Stages: ${STAGES.map((stage) => stage.name).join(", ")}`);
  process.exit(2);
}

/** A line naming a failed test, as Vitest (`FAIL`, `×`) and Playwright (`✘`) print it. */
const FAILURE = /^\s*(FAIL\b|×|✘)/;

type Outcome = { name: string; ok: boolean | null; seconds: number; log: string };

function run(stage: Stage): Promise<Outcome> {
  const log = path.join(logs, `${stage.name.replace(/\W+/g, "-")}.log`);
  const file = createWriteStream(log);
  const began = performance.now();
  // The stage's name and its seconds so far, which tell where a slow stage spent its time.
  const prefix = () => `[${stage.name} ${Math.round((performance.now() - began) / 1000)}s] `;
  console.log(`${prefix()}started: ${stage.command}`);
  const child = spawn(stage.command, { cwd: root, shell: true, env: { ...process.env, ...stage.env }, stdio: ["ignore", "pipe", "pipe"] });
  let pending = "";
  const print = (chunk: Buffer) => {
    file.write(chunk);
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop()!;
    for (const line of lines) console.log(prefix() + line);
  };
  child.stdout.on("data", print);
  child.stderr.on("data", print);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      if (pending) console.log(prefix() + pending);
      file.end();
      const seconds = Math.round((performance.now() - began) / 1000);
      console.log(`${prefix()}${code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s`);
      resolve({ name: stage.name, ok: code === 0, seconds, log });
    });
  });
}

mkdirSync(logs, { recursive: true });
const began = performance.now();
const outcomes = new Map<string, Promise<Outcome>>();
const start = (stage: Stage): Promise<Outcome> => {
  const known = outcomes.get(stage.name);
  if (known) return known;
  const outcome = (async () => {
    const waits = [...(stage.needs ?? []), ...(stage.after ?? [])];
    const before = await Promise.all(selected.filter((other) => waits.includes(other.name)).map(start));
    const unmet = before.filter((other) => stage.needs?.includes(other.name) && !other.ok);
    if (unmet.length > 0) {
      console.log(`[${stage.name}] not run: ${unmet.map((other) => other.name).join(", ")} did not pass`);
      return { name: stage.name, ok: null, seconds: 0, log: "" };
    }
    return run(stage);
  })();
  outcomes.set(stage.name, outcome);
  return outcome;
};
const results = await Promise.all(selected.map(start));

const failed = results.filter((result) => result.ok === false);
for (const result of failed) {
  const tail = readFileSync(result.log, "utf8").split("\n").slice(-150).join("\n");
  console.log(`\n── the end of ${result.name}'s output (whole: ${path.relative(root, result.log)}) ──\n${tail}`);
}
// Last, where a reader of only the end of the output sees it: each failed stage's failing tests.
for (const result of failed) {
  const failures = readFileSync(result.log, "utf8")
    .split("\n")
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => FAILURE.test(line));
  console.log(
    `\n${result.name} failed:${
      [...new Set(failures)]
        .slice(0, 20)
        .map((line) => `\n  ${line}`)
        .join("") || " (no test named; see its output above)"
    }`,
  );
}
console.log("\nTest stages:");
for (const result of results)
  console.log(`  ${result.name.padEnd(28)} ${String(result.seconds).padStart(5)} s  ${result.ok === null ? "not run" : result.ok ? "passed" : "FAILED"}`);
console.log(`Tests finished in ${Math.round((performance.now() - began) / 1000)} s`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
