// Benchmarks: `npm run bench` runs every group; `npm run bench -- <group>…` only the named ones.
// Arguments starting with `-` go to each group's script (e.g. `npm run bench -- bundle --runs 3`).
// Each group prints its figures as `BENCH <name> <value> <unit>` lines.

import { spawnSync } from "node:child_process";
import path from "node:path";

const GROUPS: Record<string, { script: string; about: string }> = {
  api: {
    script: "bench/api.ts",
    about: "the public API: a project leaderboard read through the API against bare node:http, and webhook deliveries per second",
  },
  airdrop: { script: "bench/airdrop.ts", about: "freezing an airdrop of 1,000,000 members and looking up proofs (PostgreSQL with DATABASE_URL, else PGlite)" },
  bundle: { script: "scripts/bundle-report.ts", about: "JavaScript that Welcome, Dashboard and the wallet modal download (measures build/)" },
  gas: { script: "scripts/contracts-gas.ts", about: "gas per contract function, from receipts on a fresh anvil chain (optimized bytecode)" },
  leaderboard: { script: "bench/leaderboard.ts", about: "leaderboard pages, ranks and XP awards (PGlite, or PostgreSQL with DATABASE_URL)" },
  jobs: { script: "bench/jobs.ts", about: "the job engine: send-to-handler latency and throughput (PGlite, or PostgreSQL with DATABASE_URL)" },
  ledger: { script: "bench/ledger.ts", about: "ledger postings, balance reads (PostgreSQL) and deposit credit latency" },
  onchain: {
    script: "bench/onchain.ts",
    about:
      "on-chain task checks on a 100,000-block local chain: a pasted contract_call hash, Find my transaction over 2,000 blocks, event checks of 10,000 members from one scan (PGlite, or PostgreSQL with DATABASE_URL)",
  },
  outbox: {
    script: "bench/outbox.ts",
    about: "operator transactions confirmed per minute through the outbox on a 1 s block chain, and a stuck one's replacement",
  },
  lighthouse: { script: "bench/lighthouse.ts", about: "Lighthouse scores (mobile) of Welcome, a campaign page and the leaderboard, in Debian's Chromium" },
  load: { script: "bench/load.ts", about: "the production build under 200 connections, one process and the 3-web cluster, against bare node:http" },
  serve: { script: "bench/serve.ts", about: "four pages of the production build at 50 connections, each against bare node:http, and their SQL statements" },
  rewards: { script: "bench/rewards.ts", about: "distributing one token pool to 100,000 entrants (PostgreSQL with DATABASE_URL, else PGlite)" },
  sybil: {
    script: "bench/sybil.ts",
    about:
      "trust scoring: precision and recall of flagged members against a seeded population of honest members and farms, and scoring 100,000 members (PGlite, or PostgreSQL with DATABASE_URL)",
  },
};

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const selected: string[] = [];
const options: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (!arg.startsWith("-")) selected.push(arg);
  else {
    options.push(arg);
    // An option's value: the next word, unless it names a group.
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith("-") && !(next in GROUPS)) options.push(args[++i]!);
  }
}

const unknown = selected.filter((name) => !(name in GROUPS));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(", ")}. Groups:`);
  for (const [name, { about }] of Object.entries(GROUPS)) console.error(`  ${name.padEnd(12)} ${about}`);
  process.exit(2);
}

let failed = false;
for (const name of selected.length > 0 ? selected : Object.keys(GROUPS)) {
  console.error(`[bench] ${name}: ${GROUPS[name]!.about}`);
  // App modules import `~/…` and extensionless paths, as Vite resolves them: app-paths teaches node the same.
  const result = spawnSync(process.execPath, ["--import", "./scripts/app-paths.ts", GROUPS[name]!.script, ...options], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`[bench] ${name} failed (${result.signal ?? `exit ${result.status}`})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
