import { and, eq, lte, sql } from "drizzle-orm";
import { getAddress, type Address, type Hex } from "viem";
import { airdrop, airdropAllocation, airdropTreeChunk } from "#db/schema/airdrops";
import { airdropTreeNodes, proofNodes, treeRoot, type AirdropEntry, type TreeNodes } from "#contracts/merkle";
import { rowsOf, type Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { recheckHoldingsBeforeRewards } from "~/modules/tasks/recheck-holdings.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { emitEvent } from "~/modules/events/emit.server";
import { countsOf, keptOutOf } from "~/modules/trust/exclusions.server";
import { AIRDROP_TREE_CHUNK } from "./airdrop-types";
import { setAirdropEscrow } from "./airdrop-escrow.server";
import { allocate, type AllocationRule, type Standing } from "./allocation";

/** The board an airdrop's points are kept on (all time). */
export const airdropBoard = (airdropId: string) => boardKey({ kind: "airdrop", airdropId }, "all");

/** No chain: a gate's holding rule reads as unknown, and its airdrop waits. */
const NO_CHAINS: OnchainChains = { get: () => undefined };

/** Rows written per statement: each statement carries its rows as one JSON parameter. */
const ROWS_PER_STATEMENT = 20_000;
const CHUNKS_PER_STATEMENT = 16;

export type Frozen = { airdropId: string; allocations: number; leaves: number; root: Hex | null; claimable: bigint; unclaimable: bigint };

/**
 * Freezes an ended airdrop, at most once whichever process runs it: under the airdrop's row lock,
 * its board is read (the project's own team left out: nobody pays themselves), shared by its
 * rule, each member's address taken from their primary linked wallet at this moment, and the
 * allocation and its Merkle tree written in the same transaction. Members the team excluded (from
 * the airdrop or the project) and those its eligibility gate no longer lets in get no share, as if
 * they were not on the board; how many, by reason, is kept on the airdrop (`excluded_counts`). A
 * gate that cannot be read now (a node down) throws (keptOutOf): nothing is frozen, and the next
 * run tries again. Null when the airdrop is not due (still running, or frozen already).
 */
export async function freezeAirdrop({
  db,
  airdropId,
  chains = NO_CHAINS,
  now = new Date(),
}: {
  db: Db;
  airdropId: string;
  /** The chains its gate's holding rules are read on. */
  chains?: OnchainChains;
  now?: Date;
}): Promise<Frozen | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select()
      .from(airdrop)
      .where(and(eq(airdrop.id, airdropId), eq(airdrop.status, "open"), lte(airdrop.endsAt, now)))
      .for("update");
    if (!due) return null;
    const rule: AllocationRule =
      due.rule === "pro_rata"
        ? { kind: "pro_rata", total: due.total, minPoints: due.minPoints }
        : { kind: "top", amounts: (due.rankAmounts ?? []).map(BigInt), minPoints: due.minPoints };
    const board = await standings(tx, due.id, due.projectId);
    const kept = await keptOutOf({ db: tx, chains, target: { kind: "airdrop", airdropId: due.id }, userIds: board.map((s) => s.userId), now });
    const { allocations, claimable, unclaimable } = allocate(kept.size > 0 ? board.filter((s) => !kept.has(s.userId)) : board, rule);
    const entries: AirdropEntry[] = allocations.flatMap((a) => (a.index === null ? [] : [{ index: BigInt(a.index), account: a.account!, amount: a.amount }]));
    const tree = entries.length > 0 ? airdropTreeNodes(entries) : null;
    const root = tree ? treeRoot(tree) : null;

    // Written in member order, so the primary key's index grows at its end instead of at random places.
    const byMember = [...allocations].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    for (let i = 0; i < byMember.length; i += ROWS_PER_STATEMENT) {
      const rows = byMember.slice(i, i + ROWS_PER_STATEMENT).map((a) => ({
        user_id: a.userId,
        rank: a.rank,
        points: a.points,
        amount: a.amount.toString(),
        account: a.account,
        leaf: a.index,
      }));
      await tx.execute(sql`
        insert into ${airdropAllocation} (airdrop_id, user_id, rank, points, amount, account, leaf)
        select ${due.id}, r.user_id, r.rank, r.points, r.amount, r.account, r.leaf
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(user_id text, rank integer, points integer, amount numeric, account text, leaf integer)`);
    }
    if (tree) await writeTree(tx, due.id, tree);
    // The escrow keeps what the tree pays; the shares of members without a wallet, and what no rank took, go back to the treasury.
    await setAirdropEscrow(tx, { row: due, target: due.escrowed > 0n ? claimable : 0n, now });
    await tx
      .update(airdrop)
      .set({ status: "frozen", frozenAt: now, root, leaves: entries.length, claimable, unclaimable, excludedCounts: countsOf(kept), updatedAt: now })
      .where(eq(airdrop.id, due.id));
    await emitEvent(tx, {
      type: "airdrop.frozen",
      key: `airdrop.frozen:${due.id}`,
      projectId: due.projectId,
      data: {
        airdropId: due.id,
        title: due.name.slice(0, 300),
        members: allocations.length,
        total: allocations.reduce((sum, a) => sum + a.amount, 0n).toString(),
        asset: due.asset,
        root: root ?? "",
      },
    });
    return { airdropId: due.id, allocations: allocations.length, leaves: entries.length, root, claimable, unclaimable };
  });
}

/**
 * Freezes every airdrop that has ended and is not frozen yet (the worker runs it every minute),
 * each after its holdings are read again on their chains (recheckHoldingsBeforeRewards, decision
 * 058), before its board is read. A failing airdrop (a node that cannot be reached included) is
 * reported and left for the next run; the others go on.
 */
export async function freezeEndedAirdrops({
  db,
  chains,
  now = new Date(),
  log,
  onError,
}: {
  db: Db;
  /** The chains holdings are read again on; left out, no holding is re-checked. */
  chains?: OnchainChains;
  now?: Date;
  log?: Pick<Logger, "warn">;
  onError: (airdropId: string, error: unknown) => void;
}): Promise<Frozen[]> {
  const due = await db
    .select({ id: airdrop.id })
    .from(airdrop)
    .where(and(eq(airdrop.status, "open"), lte(airdrop.endsAt, now)))
    .orderBy(airdrop.endsAt);
  const frozen: Frozen[] = [];
  for (const { id } of due) {
    try {
      // Outside the freeze's transaction: the chain is read, and a sold holding's points leave the board first.
      if (chains) await recheckHoldingsBeforeRewards({ db, chains, scope: { airdropId: id }, now, log });
      const result = await freezeAirdrop({ db, airdropId: id, ...(chains ? { chains } : {}), now });
      if (result) frozen.push(result);
    } catch (error) {
      onError(id, error);
    }
  }
  return frozen;
}

/** The board best first (points, then who reached them first), with each member's primary wallet now. */
async function standings(tx: Db, airdropId: string, projectId: string): Promise<Standing[]> {
  const result = await tx.execute(sql`
    select e.user_id, e.score, w.address
    from leaderboard_entry e
    left join lateral (
      select address from wallet_address where user_id = e.user_id order by is_primary desc, created_at, address limit 1
    ) w on true
    where e.board = ${airdropBoard(airdropId)}
      and not exists (select 1 from project_member m where m.project_id = ${projectId} and m.user_id = e.user_id)
    order by e.score desc, e.reached_at, e.user_id`);
  return rowsOf(result).map((r) => ({
    userId: String(r.user_id),
    points: Number(r.score),
    // Checksummed when it is read back (airdropClaimOf): a million checksums here would cost seconds.
    account: r.address ? (String(r.address).toLowerCase() as Address) : null,
  }));
}

/** The level every chunk of the stored array is written at (the table once held one tree level per `level`). */
const TREE_LEVEL = 0;

/**
 * Writes the tree's array (`contracts/merkle.ts`: root first, leaves last) in chunks of
 * `AIRDROP_TREE_CHUNK` hashes: node k is in chunk k / AIRDROP_TREE_CHUNK at k % AIRDROP_TREE_CHUNK.
 */
async function writeTree(tx: Db, airdropId: string, tree: TreeNodes) {
  const chunkBytes = AIRDROP_TREE_CHUNK * 32;
  const count = Math.ceil(tree.length / chunkBytes);
  for (let first = 0; first < count; first += CHUNKS_PER_STATEMENT) {
    const chunks = [];
    for (let chunk = first; chunk < Math.min(first + CHUNKS_PER_STATEMENT, count); chunk++) {
      chunks.push({
        chunk,
        hex: Buffer.from(tree.buffer, tree.byteOffset + chunk * chunkBytes, Math.min(chunkBytes, tree.length - chunk * chunkBytes)).toString("hex"),
      });
    }
    await tx.execute(sql`
      insert into ${airdropTreeChunk} (airdrop_id, level, chunk, hashes)
      select ${airdropId}, ${TREE_LEVEL}, c.chunk, decode(c.hex, 'hex')
      from jsonb_to_recordset(${JSON.stringify(chunks)}::jsonb) as c(chunk integer, hex text)`);
  }
}

export type AirdropClaim = { rank: number; points: number; amount: bigint; account: Address | null; leaf: number | null; proof: Hex[] | null };

/**
 * A member's frozen share and, when they have a leaf, its proof: the hashes of the nodes
 * `proofNodes` names (one per level of the tree, about 20 for a million leaves), each a 32-byte
 * slice of its stored chunk, read in one query, never the whole tree. Null when the member has no
 * share.
 */
export async function airdropClaimOf({ db, airdropId, userId }: { db: Db; airdropId: string; userId: string }): Promise<AirdropClaim | null> {
  const [row] = await db
    .select({ allocation: airdropAllocation, leaves: airdrop.leaves })
    .from(airdropAllocation)
    .innerJoin(airdrop, eq(airdrop.id, airdropAllocation.airdropId))
    .where(and(eq(airdropAllocation.airdropId, airdropId), eq(airdropAllocation.userId, userId)));
  if (!row) return null;
  const { rank, points, amount, account, leaf } = row.allocation;
  const share = { rank, points, amount, account: account ? getAddress(account) : null, leaf };
  if (leaf === null || !row.leaves) return { ...share, proof: null };
  const nodes = proofNodes(row.leaves, leaf);
  if (nodes.length === 0) return { ...share, proof: [] };
  const result = await db.execute(sql`
    select p.step, encode(substring(c.hashes from (p.node % ${AIRDROP_TREE_CHUNK}) * 32 + 1 for 32), 'hex') as hash
    from jsonb_to_recordset(${JSON.stringify(nodes.map((node, step) => ({ step, node })))}::jsonb) as p(step integer, node integer)
    join ${airdropTreeChunk} c on c.airdrop_id = ${airdropId} and c.level = ${TREE_LEVEL} and c.chunk = p.node / ${AIRDROP_TREE_CHUNK}
    order by p.step`);
  const proof = rowsOf(result).map((r) => `0x${String(r.hash)}` as Hex);
  if (proof.length !== nodes.length || proof.some((hash) => hash.length !== 66)) throw new Error(`The stored tree of airdrop ${airdropId} is missing nodes`);
  return { ...share, proof };
}
