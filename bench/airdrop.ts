// Airdrop freeze benchmark: `npm run bench -- airdrop` (PostgreSQL with DATABASE_URL, else PGlite).
//
// Seeds, set-based in SQL, BENCH_AIRDROP_MEMBERS members (1,000,000) on an ended pro-rata
// airdrop's board (points with ties), nine in ten with a linked wallet. Times `freezeAirdrop`
// (the board read with each member's primary wallet, the allocation, the Merkle tree, and both
// written in one transaction), checks the frozen sums, then times BENCH_AIRDROP_LOOKUPS (1,000)
// proof lookups for random members (`airdropClaimOf`), each checked against the root.
// Figures are printed as `BENCH <name> <value> <unit>`.

import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../app/lib/db.server.ts";
import { airdropBoard, airdropClaimOf, freezeAirdrop } from "../app/modules/airdrops/freeze.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, measure, p95, timed } from "./stats.ts";

const env = z
  .object({
    BENCH_AIRDROP_MEMBERS: z.coerce.number().int().min(10).default(1_000_000),
    BENCH_AIRDROP_LOOKUPS: z.coerce.number().int().min(10).default(1_000),
  })
  .parse(process.env);

const MEMBERS = env.BENCH_AIRDROP_MEMBERS;
const TOTAL = 10n ** 27n;
const AIRDROP = "bench-airdrop";
const T = new Date("2027-06-01T12:00:00Z");

async function seed({ db }: Database) {
  const n = MEMBERS;
  await timed(`members (${n.toLocaleString("en")})`, () =>
    db.execute(sql`insert into "user" (id, name, email)
      select 'a' || lpad(i::text, 7, '0'), 'Member ' || i, 'a' || i || '@bench.invalid' from generate_series(1, ${n}) i`),
  );
  await timed("wallets (9 in 10 members)", () =>
    db.execute(sql`insert into wallet_address (id, user_id, address, chain_id, is_primary)
      select 'w' || i, 'a' || lpad(i::text, 7, '0'), '0x' || lpad(to_hex(i), 40, '0'), 31337, true
      from generate_series(1, ${n}) i where i % 10 <> 0`),
  );
  await db.execute(sql`insert into project (id, slug, name) values ('bench', 'bench', 'Bench')`);
  await db.execute(sql`insert into airdrop (id, project_id, slug, name, asset, rule, total, min_points, starts_at, ends_at, claim_deadline)
    values (${AIRDROP}, 'bench', 'drop', 'Drop', 'QUEST:31337', 'pro_rata', ${TOTAL.toString()}, 1,
            ${new Date(T.getTime() - 30 * 86_400_000).toISOString()}, ${T.toISOString()}, ${new Date(T.getTime() + 30 * 86_400_000).toISOString()})`);
  // Points 1…1000 (many ties), reached at different seconds.
  await timed(`board entries (${n.toLocaleString("en")})`, () =>
    db.execute(sql`insert into leaderboard_entry (board, user_id, score, reached_at)
      select ${airdropBoard(AIRDROP)}, 'a' || lpad(i::text, 7, '0'), 1 + (i::bigint * 7919) % 1000, ${T.toISOString()}::timestamptz - (i % 86400) * interval '1 second'
      from generate_series(1, ${n}) i`),
  );
  await db.execute(sql`analyze "user", wallet_address, leaderboard_entry`);
}

await withBenchDatabase(async (database) => {
  log(`${database.kind}, ${MEMBERS.toLocaleString("en")} members on the board`);
  await seed(database);
  const started = performance.now();
  const frozen = await freezeAirdrop({ db: database.db, airdropId: AIRDROP, now: T });
  const seconds = (performance.now() - started) / 1000;
  if (!frozen || frozen.allocations !== MEMBERS || frozen.claimable + frozen.unclaimable !== TOTAL || !frozen.root) {
    throw new Error(`the freeze did not allocate the whole total: ${JSON.stringify(frozen, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`);
  }
  log(`frozen: ${frozen.leaves.toLocaleString("en")} leaves, root ${frozen.root}`);
  bench(`airdrop_freeze_${MEMBERS === 1_000_000 ? "1m" : MEMBERS}_s`, seconds, "s");

  const members = Array.from({ length: env.BENCH_AIRDROP_LOOKUPS }, () => 1 + Math.floor(Math.random() * MEMBERS)).filter((i) => i % 10 !== 0);
  const times = await measure(members.length, async (i) => {
    const claim = await airdropClaimOf({ db: database.db, airdropId: AIRDROP, userId: `a${String(members[i]).padStart(7, "0")}` });
    if (!claim?.proof) throw new Error("a member with a wallet has no proof");
    return claim;
  });
  // A hundred of the proofs looked up are checked against the root, outside the timing.
  for (const i of members.slice(0, 100)) {
    const claim = (await airdropClaimOf({ db: database.db, airdropId: AIRDROP, userId: `a${String(i).padStart(7, "0")}` }))!;
    if (!StandardMerkleTree.verify(frozen.root, ["uint256", "address", "uint256"], [claim.leaf!, claim.account!, claim.amount.toString()], claim.proof!)) {
      throw new Error(`the proof of member ${i} does not verify`);
    }
  }
  bench("airdrop_proof_p95_ms", p95(times), "ms");
});
