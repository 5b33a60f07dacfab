// Sybil defence: `npm run bench -- sybil` (PGlite, or PostgreSQL with DATABASE_URL). Decision 059.
//
// 1. Accuracy. A seeded population (bench/sybil-population.ts documents it: BENCH_SYBIL_SEED, 38
//    by default; BENCH_SYBIL_HONEST honest members, 3,000; each farm kind twice) goes into a fresh
//    database: members, sign-up networks (as the access context's hashes), tasks and completions,
//    referrals, X accounts, linked wallets. The wallets' profiles come, by BENCH_SYBIL_PROFILES:
//    - `chain`: real transfers on a fresh local anvil chain — the funders and farm roots get their
//      coin with `anvil_setBalance`, every wallet is then funded by a real transaction from its
//      funder (chains level by level, automine off, `evm_mine` until the pool is empty), farms that
//      sweep send their coin on — and `profileWallets` (trust/wallet-signals.server.ts) reads them;
//    - `direct`: the `wallet_profile` rows the generator knows, written straight (3 % of honest
//      wallets with their funding unknown, as a node without the history would leave them).
//    DEFAULT_PROFILES says which runs without the variable: `chain`, the wallets profiled from the local chain by profileWallets.
//    Then `scoreMembers` runs with the exchanges (and the local dev accounts) as shared funders, and
//    "flagged" is compared with the truth: BENCH sybil_precision / sybil_recall overall, and per farm
//    kind sybil_precision_<kind> (that kind's farm members flagged against every honest member
//    flagged: the precision if every farm were of that kind) and sybil_recall_<kind>.
// 2. Time. BENCH_SYBIL_MEMBERS (100,000) members of the same generator (farms 8 times over, the rest
//    honest), written straight into a second database (direct profiles), scored once more after a
//    first run: BENCH sybil_score_100k_s, the second run's time (every cluster found, every score written).

import os from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "../app/lib/db.server.ts";
import { startLocalChain } from "../app/lib/local-chain.server.ts";
import { LOCAL_CHAIN_ID } from "../app/lib/local-chain-id.ts";
import {
  funderClusters,
  networkClusters,
  referralClusters,
  sameAnswerClusters,
  sweepClusters,
  synchronizedClusters,
} from "../app/modules/trust/find-clusters.server.ts";
import { scoreMembers } from "../app/modules/trust/scoring.server.ts";
import { trustConfigFromEnv } from "../app/modules/trust/trust-config.server.ts";
import { profileWallets } from "../app/modules/trust/wallet-signals.server.ts";
import { localRegistry } from "../tests/setup/local-registry.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, timed } from "./stats.ts";
import { FARM_KINDS, NOW, population, type Population } from "./sybil-population.ts";

/** How wallet profiles are made without BENCH_SYBIL_PROFILES: `chain` once profileWallets (wallet-signals) is merged. */
const DEFAULT_PROFILES: "chain" | "direct" = "chain";

const env = z
  .object({
    BENCH_SYBIL_SEED: z.coerce.number().int().default(38),
    BENCH_SYBIL_HONEST: z.coerce.number().int().min(100).default(3_000),
    BENCH_SYBIL_MEMBERS: z.coerce.number().int().min(0).default(100_000),
    BENCH_SYBIL_PROFILES: z.enum(["chain", "direct"]).default(DEFAULT_PROFILES),
    BENCH_SYBIL_STEPS: z
      .enum(["0", "1"])
      .default("0")
      .transform((v) => v === "1"),
  })
  .parse(process.env);

const BATCH = 5_000;

/** Inserts `rows` into `table` through `jsonb_to_recordset`, BATCH at a time. */
async function insert(db: Db, table: string, columns: string, rows: Record<string, unknown>[], conflict = "") {
  const names = columns
    .split(",")
    .map((column) => column.trim().split(" ")[0])
    .join(", ");
  for (let from = 0; from < rows.length; from += BATCH)
    await db.execute(
      sql.raw(
        `insert into ${table} (${names}) select ${names} from jsonb_to_recordset('${JSON.stringify(rows.slice(from, from + BATCH)).replaceAll("'", "''")}'::jsonb) as r(${columns}) ${conflict}`,
      ),
    );
}

/** Everything but the wallet profiles, straight into the tables. */
async function load(db: Db, pop: Population) {
  await insert(
    db,
    `"user"`,
    "id text, name text, email text, created_at timestamptz, updated_at timestamptz",
    pop.members.map((m) => ({ id: m.id, name: m.id, email: m.email, created_at: m.createdAt, updated_at: m.createdAt })),
  );
  await insert(
    db,
    "access_context",
    "id text, user_id text, kind text, network_hash text, agent_hash text, created_at timestamptz",
    pop.signUps.map((s, i) => ({ id: `ac${i}`, user_id: s.userId, kind: "sign_up", network_hash: s.network, agent_hash: "agent", created_at: s.at })),
  );
  await insert(
    db,
    "wallet_address",
    "id text, user_id text, address text, chain_id int, is_primary boolean",
    pop.wallets.map((w, i) => ({ id: `wa${i}`, user_id: w.userId, address: w.address, chain_id: LOCAL_CHAIN_ID, is_primary: true })),
  );
  await db.execute(sql`insert into project (id, slug, name) values ('bench', 'bench', 'Bench')`);
  await insert(
    db,
    "task",
    "id text, project_id text, title text, type text, xp int, verification text",
    pop.tasks.map((t) => ({ id: t.id, project_id: "bench", title: t.id, type: t.type, xp: 10, verification: "auto" })),
  );
  await insert(
    db,
    "completion",
    "id text, task_id text, user_id text, period text, status text, submission jsonb, created_at timestamptz, updated_at timestamptz",
    pop.done.map((d, i) => ({
      id: `c${i}`,
      task_id: d.taskId,
      user_id: d.userId,
      period: "once",
      status: "approved",
      submission: d.submission,
      created_at: d.at,
      updated_at: d.at,
    })),
    "on conflict do nothing",
  );
  await insert(
    db,
    "referral",
    "referred_id text, referrer_id text, created_at timestamptz",
    pop.referrals.map((r) => ({ referred_id: r.referred, referrer_id: r.referrer, created_at: r.at })),
    "on conflict do nothing",
  );
  await insert(
    db,
    "social_account",
    "provider text, account_id text, last_user_id text, account_created_at timestamptz, followers int",
    pop.socials.map((s) => ({ provider: "x", account_id: `x-${s.userId}`, last_user_id: s.userId, account_created_at: s.createdAt, followers: s.followers })),
  );
}

/** The profiles the generator knows, as a node with the whole history would give them (and some without). */
async function directProfiles(db: Db, pop: Population) {
  await insert(
    db,
    "wallet_profile",
    "address text, chain_id int, status text, unknown_reason text, funder text, funded_at timestamptz, swept_to text, first_activity_at timestamptz, tx_count int, checked_at timestamptz",
    pop.funding.map((f) => ({
      address: f.wallet,
      chain_id: LOCAL_CHAIN_ID,
      status: f.unknown ? "unknown" : "known",
      unknown_reason: f.unknown ? "the node keeps no history that old" : null,
      funder: f.unknown ? null : f.funder,
      funded_at: f.unknown ? null : f.fundedAt,
      swept_to: f.unknown ? null : f.sweptTo,
      first_activity_at: f.unknown ? null : f.fundedAt,
      tx_count: f.unknown ? null : f.sweptTo ? 1 : 0,
      checked_at: NOW,
    })),
  );
}

/** Real transfers on a fresh local chain, then profileWallets reads them. */
async function chainProfiles(db: Db, pop: Population, sharedFunders: ReadonlySet<string>) {
  const node = await startLocalChain();
  try {
    let id = 0;
    const rpc = async (calls: [string, unknown[]][]) => {
      const response = await fetch(node.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(calls.map(([method, params]) => ({ jsonrpc: "2.0", id: id++, method, params }))),
      });
      const answers = (await response.json()) as { error?: { message: string }; result?: unknown }[];
      const failed = answers.find((answer) => answer.error);
      if (failed) throw new Error(`anvil: ${failed.error!.message}`);
      return answers.map((answer) => answer.result);
    };
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    const nonces = new Map<string, number>();
    const send = (from: string, to: string, value: bigint): [string, unknown[]] => {
      const nonce = nonces.get(from) ?? 0;
      nonces.set(from, nonce + 1);
      return ["eth_sendTransaction", [{ from, to, value: hex(value), gas: "0x5208", nonce: hex(BigInt(nonce)) }]];
    };
    const mineAll = async () => {
      for (;;) {
        await rpc([["evm_mine", []]]);
        const [status] = (await rpc([["txpool_status", []]])) as { pending: string; queued: string }[];
        if (Number(status!.pending) + Number(status!.queued) === 0) return;
      }
    };
    const inBatches = async (calls: [string, unknown[]][]) => {
      for (let from = 0; from < calls.length; from += 500) await rpc(calls.slice(from, from + 500));
    };
    await rpc([
      ["anvil_autoImpersonateAccount", [true]],
      ["evm_setAutomine", [false]],
    ]);
    await inBatches([...pop.roots, ...pop.exchanges].map((address) => ["anvil_setBalance", [address, hex(10n ** 22n)]]));
    const milli = 10n ** 15n;
    const depths = [...new Set(pop.funding.map((f) => f.depth))].sort((a, b) => a - b);
    await timed(`${pop.funding.length.toLocaleString("en")} funding transfers in ${depths.length} levels`, async () => {
      for (const depth of depths) {
        await inBatches(pop.funding.filter((f) => f.depth === depth).map((f) => send(f.funder, f.wallet, BigInt(f.amountMilli) * milli)));
        await mineAll();
      }
    });
    const sweeps = pop.funding.filter((f) => f.sweptTo);
    await inBatches(sweeps.map((f) => send(f.wallet, f.sweptTo!, (BigInt(f.amountMilli) * milli) / 2n)));
    await mineAll();
    // Every wallet holds coin now (a transfer that failed would leave one empty).
    const balances = (await rpc(pop.funding.slice(0, 2_000).map((f) => ["eth_getBalance", [f.wallet, "latest"]]))) as string[];
    const empty = balances.filter((balance) => BigInt(balance) === 0n).length;
    if (empty > 0) throw new Error(`${empty} wallets hold nothing after their funding`);
    const chain = localRegistry({ url: node.url, webSocket: null }).get(LOCAL_CHAIN_ID)!;
    const profiled = await timed("profileWallets", () => profileWallets({ db, chain, sharedFunders, limit: pop.wallets.length + 1 }));
    log(`profiled ${profiled.profiled} wallets (${profiled.unknown} unknown)`);
  } finally {
    await node.stop();
  }
}

const flaggedOf = async (db: Db) => new Set(rowsOf(await db.execute(sql`select user_id from trust_score where flagged`)).map((row) => String(row.user_id)));

/** Which rules flagged the honest members flagged, and which kinds of farm member were missed: for tuning. */
async function diagnose(db: Db, pop: Population, flagged: Set<string>) {
  const honestFlagged = pop.members.filter((m) => !m.farm && flagged.has(m.id)).map((m) => m.id);
  if (honestFlagged.length > 0) {
    const codes = rowsOf(
      await db.execute(sql`select r->>'code' as code, count(*)::int as n from trust_score, jsonb_array_elements(reasons) r
        where user_id in (select jsonb_array_elements_text(${JSON.stringify(honestFlagged)}::jsonb)) group by 1 order by 2 desc`),
    );
    log(`honest members flagged, by reason: ${codes.map((row) => `${String(row.code)} ${String(row.n)}`).join(", ")}`);
  }
  const clusters = rowsOf(
    await db.execute(sql`select kind, count(*)::int as n, sum(size)::int as members from trust_cluster where size > 0 group by kind order by kind`),
  );
  log(`clusters: ${clusters.map((row) => `${String(row.kind)} ${String(row.n)} (${String(row.members)} members)`).join(", ")}`);
}

/** Each kind's statement alone (BENCH_SYBIL_STEPS=1), for tuning. */
async function timeSteps(db: Db, shared: ReadonlySet<string>) {
  await timed("funder", () => funderClusters(db, shared));
  await timed("sweep", () => sweepClusters(db, shared));
  await timed("network", () => networkClusters(db));
  await timed("synchronized", () => synchronizedClusters(db));
  await timed("same_answer", () => sameAnswerClusters(db));
  await timed("referral", () => referralClusters(db, NOW));
}

const sharedFunders = (pop: Population) => trustConfigFromEnv({ TRUST_SHARED_FUNDERS: pop.exchanges.join(",") }, { authSecret: "bench" }).sharedFunders;

async function accuracy() {
  const pop = population({ seed: env.BENCH_SYBIL_SEED, honest: env.BENCH_SYBIL_HONEST, scale: 1 });
  const farm = pop.members.filter((m) => m.farm);
  log(
    `seed ${env.BENCH_SYBIL_SEED}: ${pop.members.length - farm.length} honest members, ${farm.length} farm members, ${pop.wallets.length} wallets, ${pop.done.length} completions; profiles: ${env.BENCH_SYBIL_PROFILES}`,
  );
  return withBenchDatabase(async ({ db }) => {
    await timed("population written", () => load(db, pop));
    const shared = sharedFunders(pop);
    if (env.BENCH_SYBIL_PROFILES === "chain") await chainProfiles(db, pop, shared);
    else await directProfiles(db, pop);
    if (env.BENCH_SYBIL_STEPS) await timeSteps(db, shared);
    const run = await timed("scoring", () => scoreMembers({ db, sharedFunders: shared, now: NOW }));
    log(`scored ${run.members} members: ${run.clusters} clusters, ${run.flagged} flagged`);
    const flagged = await flaggedOf(db);
    const falsePositives = pop.members.filter((m) => !m.farm && flagged.has(m.id)).length;
    const truePositives = farm.filter((m) => flagged.has(m.id)).length;
    bench("sybil_precision", truePositives / Math.max(1, truePositives + falsePositives), "ratio");
    bench("sybil_recall", truePositives / farm.length, "ratio");
    for (const kind of FARM_KINDS) {
      const members = farm.filter((m) => m.farm === kind);
      const found = members.filter((m) => flagged.has(m.id)).length;
      bench(`sybil_precision_${kind}`, found / Math.max(1, found + falsePositives), "ratio");
      bench(`sybil_recall_${kind}`, found / members.length, "ratio");
    }
    log(`${falsePositives} honest members flagged, ${farm.length - truePositives} farm members missed`);
    await diagnose(db, pop, flagged);
    return farm.length;
  });
}

async function speed(farmAtScaleOne: number) {
  const scale = 8;
  const honest = Math.max(100, env.BENCH_SYBIL_MEMBERS - farmAtScaleOne * scale - 400);
  const pop = population({ seed: env.BENCH_SYBIL_SEED + 1, honest, scale });
  log(`${pop.members.length.toLocaleString("en")} members (${pop.done.length.toLocaleString("en")} completions) for the timing`);
  await withBenchDatabase(async ({ db }) => {
    await timed("population written", async () => {
      await load(db, pop);
      await directProfiles(db, pop);
      await db.execute(sql`analyze`);
    });
    const shared = sharedFunders(pop);
    await timed("first scoring run", () => scoreMembers({ db, sharedFunders: shared, now: NOW }));
    const started = performance.now();
    const run = await scoreMembers({ db, sharedFunders: shared, now: NOW });
    const seconds = (performance.now() - started) / 1000;
    log(
      `scored ${run.members} members: ${run.clusters} clusters, ${run.flagged} flagged; load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    bench("sybil_score_100k_s", (seconds * 100_000) / run.members, "s");
    if (env.BENCH_SYBIL_STEPS) await timeSteps(db, shared);
    const flagged = await flaggedOf(db);
    const farm = pop.members.filter((m) => m.farm);
    const truePositives = farm.filter((m) => flagged.has(m.id)).length;
    log(`100k: ${flagged.size - truePositives} honest members flagged, ${farm.length - truePositives} of ${farm.length} farm members missed`);
    await diagnose(db, pop, flagged);
  });
}

const farmMembers = await accuracy();
if (env.BENCH_SYBIL_MEMBERS > 0) await speed(farmMembers);
