import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { privateKeyToAddress } from "viem/accounts";
import { bytesToHex, hexToBytes, keccak256, toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdropTreeLevels, proofFromLevels } from "#contracts/merkle";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { ALLOCATION_CSV_HEADER, allocationCsv, LEAF_ENCODING, TREE_DUMP_FORMAT, treeDump } from "./airdrop-files.server";
import { airdropBoard, freezeAirdrop } from "./freeze.server";

const T = new Date("2026-11-20T12:00:00Z");
const E = 10n ** 18n;
let database: Database;
const db = () => database.db;

type Dump = { format: string; leafEncoding: string[]; root: Hex; values: { value: [string, string, string]; treeIndex: number }[]; levels: Hex[][] };

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
  it("holds every value and level of a five-leaf tree; each proof read from it passes OpenZeppelin's verifier against the root", async () => {
    const frozen = await frozenAirdrop("five", 5);
    const dump = JSON.parse(await read(treeDump({ db: db(), airdropId: "five", root: frozen.root!, batch: 2 }))) as Dump;
    expect(dump).toMatchObject({ format: TREE_DUMP_FORMAT, leafEncoding: [...LEAF_ENCODING], root: frozen.root });
    expect(dump.values.map((v) => v.treeIndex)).toEqual([0, 1, 2, 3, 4]);
    // Rebuilt from the values, the levels are the dump's, root last.
    const entries = dump.values.map(({ value: [index, account, amount] }) => ({ index: BigInt(index), account: account as Hex, amount: BigInt(amount) }));
    const levels = airdropTreeLevels(entries);
    expect(levels.map((level) => Array.from({ length: level.length / 32 }, (_, i) => bytesToHex(level.subarray(i * 32, i * 32 + 32))))).toEqual(dump.levels);
    expect(dump.levels.at(-1)).toEqual([frozen.root]);
    const stored = dump.levels.map((level) => hexToBytes(`0x${level.map((h) => h.slice(2)).join("")}`));
    for (const { value, treeIndex } of dump.values) {
      expect(StandardMerkleTree.verify(dump.root, dump.leafEncoding, value, proofFromLevels(stored, treeIndex))).toBe(true);
    }
    // A value the tree does not hold fails.
    const [index, account] = dump.values[0]!.value;
    expect(StandardMerkleTree.verify(dump.root, dump.leafEncoding, [index, account, "1"], proofFromLevels(stored, 0))).toBe(false);
  });

  it("streams a tree over several stored chunks and batches, the same as one built from its values", async () => {
    const frozen = await frozenAirdrop("big", 4_100);
    const dump = JSON.parse(await read(treeDump({ db: db(), airdropId: "big", root: frozen.root!, batch: 1_000 }))) as Dump;
    expect(dump.values).toHaveLength(4_100);
    expect(dump.levels.map((level) => level.length)).toEqual([4100, 2050, 1025, 513, 257, 129, 65, 33, 17, 9, 5, 3, 2, 1]);
    const rebuilt = airdropTreeLevels(dump.values.map(({ value: [i, a, n] }) => ({ index: BigInt(i), account: a as Hex, amount: BigInt(n) })));
    expect(bytesToHex(rebuilt.at(-1)!)).toBe(frozen.root);
    const stored = dump.levels.map((level) => hexToBytes(`0x${level.map((h) => h.slice(2)).join("")}`));
    for (const i of [0, 4095, 4096, 4099])
      expect(StandardMerkleTree.verify(dump.root, dump.leafEncoding, dump.values[i]!.value, proofFromLevels(stored, i))).toBe(true);
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
