import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { formatUnits } from "viem";
import { leafNode } from "#contracts/merkle";
import { airdropAllocation, airdropTreeChunk } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { csvCell } from "~/lib/csv";
import { QUEST_DECIMALS } from "~/modules/ledger/assets";

/**
 * The frozen airdrop's two downloads, streamed: each statement reads one batch by an index
 * (the allocation's leaf or member key, the tree's chunk), so a million rows never sit
 * in memory and no batch sorts the whole allocation.
 */

/** Rows read per statement. */
const ROWS = 5_000;
/** Tree chunks (4,096 hashes, 128 KiB each) read per statement. */
const CHUNKS = 4;

/** The dump is `@openzeppelin/merkle-tree`'s: `StandardMerkleTree.load` reads it (docs/decisions/026). */
export const TREE_DUMP_FORMAT = "standard-v1";
export const LEAF_ENCODING = ["uint256", "address", "uint256"] as const;

function streamOf(parts: () => AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const source = parts();
  return new ReadableStream({
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

type LeafRow = { rank: number; points: number; amount: bigint; account: string | null; leaf: number | null };

/** The allocation rows with a leaf, in leaf order (= rank order among them), a batch at a time. */
async function* rowsWithLeaves(db: Db, airdropId: string, batch: number) {
  let last = -1;
  for (;;) {
    const rows: LeafRow[] = await db
      .select({
        rank: airdropAllocation.rank,
        points: airdropAllocation.points,
        amount: airdropAllocation.amount,
        account: airdropAllocation.account,
        leaf: airdropAllocation.leaf,
      })
      .from(airdropAllocation)
      .where(and(eq(airdropAllocation.airdropId, airdropId), gt(airdropAllocation.leaf, last)))
      .orderBy(asc(airdropAllocation.leaf))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows;
    last = rows.at(-1)!.leaf!;
    if (rows.length < batch) return;
  }
}

/** The allocation rows without a leaf (no wallet at the freeze), in member order, a batch at a time. */
async function* rowsWithoutLeaves(db: Db, airdropId: string, batch: number) {
  let last = "";
  for (;;) {
    const rows = await db
      .select({ userId: airdropAllocation.userId, rank: airdropAllocation.rank, points: airdropAllocation.points, amount: airdropAllocation.amount })
      .from(airdropAllocation)
      .where(and(eq(airdropAllocation.airdropId, airdropId), isNull(airdropAllocation.leaf), gt(airdropAllocation.userId, last)))
      .orderBy(asc(airdropAllocation.userId))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows.map((r): LeafRow => ({ ...r, account: null, leaf: null }));
    last = rows.at(-1)!.userId;
    if (rows.length < batch) return;
  }
}

export const ALLOCATION_CSV_HEADER = ["rank", "points", "amount_base_units", "amount", "account", "leaf"];

/**
 * The frozen allocation as CSV, one line per member with a share: first the members who can claim,
 * by leaf (which is their rank order), then those who had no wallet at the freeze (no account, no
 * leaf: their share went back to the project). Amounts in base units and in tokens.
 */
export function allocationCsv({ db, airdropId, batch = ROWS }: { db: Db; airdropId: string; batch?: number }): ReadableStream<Uint8Array> {
  return streamOf(async function* () {
    yield `${ALLOCATION_CSV_HEADER.join(",")}\r\n`;
    for (const source of [rowsWithLeaves(db, airdropId, batch), rowsWithoutLeaves(db, airdropId, batch)]) {
      for await (const rows of source) {
        yield rows.map((r) => [r.rank, r.points, r.amount, formatUnits(r.amount, QUEST_DECIMALS), r.account, r.leaf].map(csvCell).join(",") + "\r\n").join("");
      }
    }
  });
}

/** The stored tree's chunks in order (`freeze.server.ts` writes the tree's array at level 0), a few at a time. */
async function* treeChunks(db: Db, airdropId: string) {
  let last = -1;
  for (;;) {
    const chunks = await db
      .select({ chunk: airdropTreeChunk.chunk, hashes: airdropTreeChunk.hashes })
      .from(airdropTreeChunk)
      .where(and(eq(airdropTreeChunk.airdropId, airdropId), eq(airdropTreeChunk.level, 0), gt(airdropTreeChunk.chunk, last)))
      .orderBy(asc(airdropTreeChunk.chunk))
      .limit(CHUNKS);
    for (const c of chunks) {
      if (c.chunk !== last + 1) throw new Error(`The stored tree of airdrop ${airdropId} is missing chunk ${last + 1}`);
      yield c.hashes;
      last = c.chunk;
    }
    if (chunks.length < CHUNKS) return;
  }
}

/**
 * The frozen tree as `@openzeppelin/merkle-tree`'s `standard-v1` dump, the one
 * `StandardMerkleTree.of(values, LEAF_ENCODING, { sortLeaves: false }).dump()` gives:
 * `tree` holds every node of the stored array (root first, leaf i at 2n − 2 − i), `values` each
 * leaf's [index, account, amount] in leaf order with its place in `tree`.
 * `StandardMerkleTree.load(dump)` checks it whole and gives the root AirdropDistributor checks.
 */
export function treeDump({ db, airdropId, batch = ROWS }: { db: Db; airdropId: string; batch?: number }): ReadableStream<Uint8Array> {
  return streamOf(async function* () {
    yield `{"format":${JSON.stringify(TREE_DUMP_FORMAT)},"leafEncoding":${JSON.stringify(LEAF_ENCODING)},"tree":[`;
    let nodes = 0;
    for await (const hashes of treeChunks(db, airdropId)) {
      const hex = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength).toString("hex");
      const parts: string[] = [];
      for (let at = 0; at < hex.length; at += 64) parts.push(`"0x${hex.slice(at, at + 64)}"`);
      yield (nodes === 0 ? "\n" : ",\n") + parts.join(",\n");
      nodes += parts.length;
    }
    // A tree of n leaves has 2n − 1 nodes.
    const leaves = (nodes + 1) / 2;
    yield `\n],"values":[`;
    let count = 0;
    for await (const rows of rowsWithLeaves(db, airdropId, batch)) {
      yield rows
        .map((r) => {
          // The leaves are 0 … n − 1, each the value at its own index, as `values` must hold them.
          if (r.leaf !== count || r.leaf >= leaves) throw new Error(`Airdrop ${airdropId}'s leaf ${count} is not in its stored tree of ${leaves} leaves`);
          return `${count++ === 0 ? "" : ","}\n{"value":["${r.leaf}","${r.account}","${r.amount}"],"treeIndex":${leafNode(leaves, r.leaf)}}`;
        })
        .join("");
    }
    if (count !== leaves) throw new Error(`Airdrop ${airdropId} has ${count} leaves for a stored tree of ${leaves}`);
    yield `\n]}\n`;
  });
}
