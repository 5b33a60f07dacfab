import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { formatUnits } from "viem";
import { airdropAllocation, airdropTreeChunk } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { csvCell } from "~/lib/csv";
import { QUEST_DECIMALS } from "~/modules/ledger/assets";

/**
 * The frozen airdrop's two downloads, streamed: each statement reads one batch by an index
 * (the allocation's leaf or member key, the tree's level and chunk), so a million rows never sit
 * in memory and no batch sorts the whole allocation.
 */

/** Rows read per statement. */
const ROWS = 5_000;
/** Tree chunks (4,096 hashes, 128 KiB each) read per statement. */
const CHUNKS = 4;

/** The dump's name for our tree's layout (see `contracts/merkle.ts` and docs/decisions/026). */
export const TREE_DUMP_FORMAT = "questline-levels-v1";
export const LEAF_ENCODING = ["uint256", "address", "uint256"] as const;
const LAYOUT =
  "levels[0] holds the leaves in index order, the last level the root; each level pairs its nodes left to right, hashing each pair sorted (OpenZeppelin's MerkleProof and StandardMerkleTree.verify), and carries an odd last node up unchanged. A leaf is StandardMerkleTree's leaf hash of value = [index, account, amount].";

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

/**
 * The frozen tree as JSON: the leaves' values (index, account, amount) in leaf order and every
 * level of the stored tree, leaves first, root last (`LAYOUT` says how the levels are made, so a
 * reader can rebuild and check every proof against `root`).
 */
export function treeDump({ db, airdropId, root, batch = ROWS }: { db: Db; airdropId: string; root: string; batch?: number }): ReadableStream<Uint8Array> {
  return streamOf(async function* () {
    yield `{"format":${JSON.stringify(TREE_DUMP_FORMAT)},"layout":${JSON.stringify(LAYOUT)},"leafEncoding":${JSON.stringify(LEAF_ENCODING)},"root":${JSON.stringify(root)},"values":[`;
    let first = true;
    for await (const rows of rowsWithLeaves(db, airdropId, batch)) {
      yield rows
        .map((r) => {
          const line = `${first ? "" : ","}\n{"value":["${r.leaf}","${r.account}","${r.amount}"],"treeIndex":${r.leaf}}`;
          first = false;
          return line;
        })
        .join("");
    }
    yield `\n],"levels":[`;
    let level = -1;
    let chunk = -1;
    for (;;) {
      const chunks = await db
        .select({ level: airdropTreeChunk.level, chunk: airdropTreeChunk.chunk, hashes: airdropTreeChunk.hashes })
        .from(airdropTreeChunk)
        .where(and(eq(airdropTreeChunk.airdropId, airdropId), sql`(${airdropTreeChunk.level}, ${airdropTreeChunk.chunk}) > (${level}, ${chunk})`))
        .orderBy(asc(airdropTreeChunk.level), asc(airdropTreeChunk.chunk))
        .limit(CHUNKS);
      if (chunks.length === 0) break;
      for (const c of chunks) {
        const hex = Buffer.from(c.hashes).toString("hex");
        const nodes: string[] = [];
        for (let at = 0; at < hex.length; at += 64) nodes.push(`"0x${hex.slice(at, at + 64)}"`);
        // A new level opens its array (closing the one before); a further chunk of a level goes on with a comma.
        const opening = c.level !== level ? `${level === -1 ? "" : "],"}\n[` : ",";
        yield opening + nodes.join(",");
        level = c.level;
        chunk = c.chunk;
      }
      if (chunks.length < CHUNKS) break;
    }
    yield `${level === -1 ? "" : "]"}\n]}\n`;
  });
}
