import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { privateKeyToAddress } from "viem/accounts";
import { eq } from "drizzle-orm";
import { keccak256, toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop, airdropTreeChunk } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { ALLOCATION_CSV_HEADER, allocationCsv, LEAF_ENCODING, TREE_DUMP_FORMAT, treeDump } from "./airdrop-files.server";
import { airdropBoard, airdropClaimOf, freezeAirdrop } from "./freeze.server";

const T = new Date("2026-11-20T12:00:00Z");
const E = 10n ** 18n;
let database: Database;
const db = () => database.db;

type Dump = { format: "standard-v1"; leafEncoding: string[]; tree: Hex[]; values: { value: [string, string, string]; treeIndex: number }[] };

/** `members` members with points; every `noWallet`-th one has no wallet (no leaf). Frozen at T. */
async function frozenAirdrop(id: string, members: number, noWallet = 0) {
  const ids = Array.from({ length: members }, (_, i) => `${id}-m${String(i).padStart(5, "0")}`);
  await db()
    .insert(user)
    .values(ids.map((uid) => ({ id: uid, email: `${uid}@example.com`, name: uid })));
  const withWallets = ids.filter((_, i) => !(noWallet > 0 && i % noWallet === noWallet - 1));
  if (withWallets.length > 0) {
    await db()
      .insert(walletAddress)
      .values(
        withWallets.map((uid) => ({ id: `w-${uid}`, userId: uid, address: privateKeyToAddress(keccak256(toHex(uid))), chainId: 31337, isPrimary: true })),
      );
  }
  await db()
    .insert(airdrop)
    .values({
      id,
      projectId: "p",
      slug: id,
      name: id,
      asset: "QUEST:31337",
      rule: "pro_rata",
      total: 1000n * E,
      startsAt: new Date(T.getTime() - 86_400_000),
      endsAt: T,
      claimDeadline: new Date(T.getTime() + 30 * 86_400_000),
      publishedAt: new Date(T.getTime() - 2 * 86_400_000),
    });
  await db()
    .insert(leaderboardEntry)
    .values(ids.map((userId, i) => ({ board: airdropBoard(id), userId, score: 10_000 - i, reachedAt: new Date(T.getTime() - 1000) })));
  const frozen = await freezeAirdrop({ db: db(), airdropId: id, now: T });
  return frozen!;
}

async function read(stream: ReadableStream<Uint8Array>) {
  return new Response(stream).text();
}

beforeAll(async () => {
  database = await createTestDatabase();
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

describe("the tree dump", () => {
  it("is StandardMerkleTree's standard-v1 dump of a five-leaf tree: load() accepts it, gives the stored root and proves every value", async () => {
    const frozen = await frozenAirdrop("five", 5);
    const dump = JSON.parse(await read(treeDump({ db: db(), airdropId: "five", batch: 2 }))) as Dump;
    expect(Object.keys(dump)).toEqual(["format", "leafEncoding", "tree", "values"]);
    expect(dump).toMatchObject({ format: TREE_DUMP_FORMAT, leafEncoding: [...LEAF_ENCODING] });
    expect(dump.tree).toHaveLength(9);
    expect(dump.values.map((v) => v.treeIndex)).toEqual([8, 7, 6, 5, 4]);
    expect(dump.values.map((v) => v.value[0])).toEqual(["0", "1", "2", "3", "4"]);
    // The library builds the very same dump from the values, leaves in index order.
    expect(
      StandardMerkleTree.of(
        dump.values.map((v) => v.value),
        [...LEAF_ENCODING],
        { sortLeaves: false },
      ).dump(),
    ).toEqual(dump);
    const tree = StandardMerkleTree.load(dump);
    tree.validate();
    expect(tree.root).toBe(frozen.root);
    for (const [i, value] of tree.entries()) {
      const proof = tree.getProof(i);
      expect(tree.verify(i, proof)).toBe(true);
      expect(StandardMerkleTree.verify(frozen.root!, dump.leafEncoding, value, proof)).toBe(true);
      // The proof the claim page serves is the library's.
      const claim = await airdropClaimOf({ db: db(), airdropId: "five", userId: `five-m${String(i).padStart(5, "0")}` });
      expect(claim).toMatchObject({ leaf: i, proof });
    }
    // A value the tree does not hold fails.
    const [index, account] = dump.values[0]!.value;
    expect(StandardMerkleTree.verify(frozen.root!, dump.leafEncoding, [index, account, "1"], tree.getProof(0))).toBe(false);
    // A dump whose tree was tampered with does not load.
    const tampered = { ...dump, tree: dump.tree.map((h, k) => (k === 3 ? `0x${"00".repeat(32)}` : h)) };
    expect(() => StandardMerkleTree.load(tampered)).toThrow();
  });

  it("streams a tree over several stored chunks and batches, which the library loads and rebuilds from its values", async () => {
    const frozen = await frozenAirdrop("big", 4_100);
    const dump = JSON.parse(await read(treeDump({ db: db(), airdropId: "big", batch: 1_000 }))) as Dump;
    expect(dump.values).toHaveLength(4_100);
    // 8,199 nodes: chunks of 4,096, 4,096 and 7.
    expect(dump.tree).toHaveLength(2 * 4_100 - 1);
    const stored = await db()
      .select({ chunk: airdropTreeChunk.chunk, level: airdropTreeChunk.level })
      .from(airdropTreeChunk)
      .where(eq(airdropTreeChunk.airdropId, "big"));
    expect(stored.map((c) => [c.level, c.chunk]).sort()).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
    const tree = StandardMerkleTree.load(dump);
    tree.validate();
    expect(tree.root).toBe(frozen.root);
    expect(
      StandardMerkleTree.of(
        dump.values.map((v) => v.value),
        [...LEAF_ENCODING],
        { sortLeaves: false },
      ).root,
    ).toBe(frozen.root);
    for (const i of [0, 1, 2_047, 2_048, 4_095, 4_096, 4_099]) {
      expect(dump.values[i]!.treeIndex).toBe(2 * 4_100 - 2 - i);
      const proof = tree.getProof(i);
      expect(StandardMerkleTree.verify(frozen.root!, dump.leafEncoding, dump.values[i]!.value, proof)).toBe(true);
      const claim = await airdropClaimOf({ db: db(), airdropId: "big", userId: `big-m${String(i).padStart(5, "0")}` });
      expect(claim).toMatchObject({ leaf: i, proof });
    }
  });
});

describe("the allocation CSV", () => {
  it("has one line per share: those who can claim by leaf (their rank order), then those without a wallet", async () => {
    await frozenAirdrop("csv", 7, 3);
    const text = await read(allocationCsv({ db: db(), airdropId: "csv", batch: 2 }));
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(ALLOCATION_CSV_HEADER.join(","));
    const rows = lines.slice(1).map((line) => line.split(","));
    expect(rows).toHaveLength(7);
    // Members 3 and 6 (ranks 3 and 6) had no wallet.
    expect(rows.map((r) => [r[0], r[5]])).toEqual([
      ["1", "0"],
      ["2", "1"],
      ["4", "2"],
      ["5", "3"],
      ["7", "4"],
      ["3", ""],
      ["6", ""],
    ]);
    const total = rows.reduce((sum, r) => sum + BigInt(r[2]!), 0n);
    expect(total).toBe(1000n * E);
    expect(rows[0]![3]).toMatch(/^\d+(\.\d+)?$/);
    expect(rows[0]![4]).toMatch(/^0x[0-9a-f]{40}$/);
  });
});
