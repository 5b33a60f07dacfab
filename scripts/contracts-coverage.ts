// Line, statement, branch and function coverage of contracts/*.sol, measured on anvil:
//   1. compiles the unoptimized coverage build (source maps stay exact) into coverage/contracts/;
//   2. runs the contract tests (vitest) with CONTRACTS_COVERAGE_DIR set: each test file traces
//      every call it makes and saves the executed source ranges;
//   3. prints the figures per contract and fails below 100 % (lines and branches), listing what
//      was missed.
//
//   npm run coverage:contracts

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compileContracts } from "../contracts/compile.ts";
import { COVERAGE_BUILD_FILE } from "../contracts/coverage/collector.ts";
import { coverageReport } from "../contracts/coverage/report.ts";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "coverage", "contracts");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const started = performance.now();
const build = compileContracts({ optimize: false });
writeFileSync(path.join(dir, COVERAGE_BUILD_FILE), JSON.stringify(build));
console.error(`[coverage] coverage build compiled in ${Math.round(performance.now() - started)} ms`);

const vitest = path.join(root, "node_modules", ".bin", "vitest");
const run = spawnSync(vitest, ["run", "contracts/test", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, CONTRACTS_COVERAGE_DIR: dir },
});
if (run.status !== 0) {
  console.error("[coverage] the contract tests failed");
  process.exit(run.status ?? 1);
}

const hits = new Set<string>();
for (const name of readdirSync(dir).filter((file) => file.startsWith("hits-"))) {
  for (const key of JSON.parse(readFileSync(path.join(dir, name), "utf8")) as string[]) hits.add(key);
}
const report = coverageReport(build, hits);
writeFileSync(path.join(dir, "summary.json"), JSON.stringify(report, null, 2));

const pct = (covered: number, total: number) => (total === 0 ? "100.0" : ((100 * covered) / total).toFixed(1));
const cell = ({ covered, total }: { covered: number; total: number }) => `${pct(covered, total)}% (${covered}/${total})`.padEnd(18);
console.log(`\n${"contract".padEnd(34)}${"lines".padEnd(18)}${"statements".padEnd(18)}${"branches".padEnd(18)}functions`);
let complete = true;
for (const file of report) {
  console.log(`${file.file.padEnd(34)}${cell(file.lines)}${cell(file.statements)}${cell(file.branches)}${cell(file.functions)}`);
  if (file.lines.missed.length > 0) console.log(`  lines missed: ${file.lines.missed.join(", ")}`);
  for (const label of file.branches.missed) console.log(`  branch missed: ${label}`);
  for (const label of file.functions.missed) console.log(`  function missed: ${label}`);
  const name = path.basename(file.file, ".sol");
  console.log(`COVERAGE ${name} lines ${pct(file.lines.covered, file.lines.total)} branches ${pct(file.branches.covered, file.branches.total)}`);
  if (
    file.lines.covered < file.lines.total ||
    file.statements.covered < file.statements.total ||
    file.branches.covered < file.branches.total ||
    file.functions.covered < file.functions.total
  ) {
    complete = false;
  }
}
if (!complete) {
  console.error("\n[coverage] below 100 %: every line, statement, branch and function of contracts/*.sol must run in the tests");
  process.exit(1);
}
console.error(`\n[coverage] 100 % of contracts/*.sol in ${Math.round((performance.now() - started) / 1000)} s`);
