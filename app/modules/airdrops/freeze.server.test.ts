import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdropTree } from "#contracts/merkle";
import { DEV_ADDRESSES, DEV_OPERATOR_PRIVATE_KEY } from "#contracts/dev-accounts";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { airdrop, airdropAllocation } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { airdropBoard, airdropClaimOf, freezeAirdrop, freezeEndedAirdrops } from "./freeze.server";

const T = new Date("2026-11-20T12:00:00Z");
const ENCODING = ["uint256", "address", "uint256"];
let database: Database;
const db = () => database.db;

/** Members m0…m9 with points 100, 90, …; m3 has no wallet; `own` is on the project's team with the most points. */
beforeAll(async () => {
  database = await createTestDatabase();
  const members = Array.from({ length: 10 }, (_, i) => `m${i}`);
  await db()
    .insert(user)
    .values([...members, "own"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db()
    .insert(walletAddress)
    .values(
      members.filter((id) => id !== "m3").map((id, i) => ({ id: `w-${id}`, userId: id, address: DEV_ADDRESSES[i + 1]!, chainId: 31337, isPrimary: true })),
    );
});
afterAll(() => database.close());

async function endedAirdrop(id: string, rule: { rule: "pro_rata"; total: bigint } | { rule: "top"; amounts: bigint[] }, minPoints = 0) {
  await db()
    .insert(airdrop)
    .values({
      id,
      projectId: "p",
      slug: id,
      name: id,
      asset: "QUEST:31337",
      rule: rule.rule,
      total: rule.rule === "pro_rata" ? rule.total : rule.amounts.reduce((a, b) => a + b, 0n),
      rankAmounts: rule.rule === "top" ? rule.amounts.map(String) : null,
      minPoints,
      startsAt: new Date(T.getTime() - 86_400_000),
      endsAt: T,
      claimDeadline: new Date(T.getTime() + 30 * 86_400_000),
    });
  const scores = [...Array.from({ length: 10 }, (_, i) => [`m${i}`, 100 - i * 10] as const), ["own", 1000] as const];
  await db()
    .insert(leaderboardEntry)
    .values(scores.map(([userId, score], i) => ({ board: airdropBoard(id), userId, score, reachedAt: new Date(T.getTime() - 1000 + i) })));
}

describe("freezeAirdrop", () => {
  it("freezes an ended airdrop once: the allocation, its tree and every proof agree with OpenZeppelin's verifier", async () => {
    await endedAirdrop("pr", { rule: "pro_rata", total: parseEther("1000") }, 20);
    expect(await freezeAirdrop({ db: db(), airdropId: "pr", now: new Date(T.getTime() - 1) })).toBeNull();
    const frozen = await freezeAirdrop({ db: db(), airdropId: "pr", now: T });
    // m0…m8 have at least 20 points (m9 has 10); the team's `own` is left out; m3 has no wallet.
    expect(frozen).toMatchObject({ allocations: 9, leaves: 8 });
    expect(frozen!.claimable + frozen!.unclaimable).toBe(parseEther("1000"));
    expect(await freezeAirdrop({ db: db(), airdropId: "pr", now: new Date(T.getTime() + 60_000) })).toBeNull();

    const rows = await db().select().from(airdropAllocation).where(eq(airdropAllocation.airdropId, "pr")).orderBy(airdropAllocation.rank);
    expect(rows.map((r) => r.userId)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"]);
    expect(rows.find((r) => r.userId === "m3")).toMatchObject({ account: null, leaf: null });
    expect(rows.reduce((sum, r) => sum + r.amount, 0n)).toBe(parseEther("1000"));
    const claimers = rows.filter((r) => r.leaf !== null).sort((a, b) => a.leaf! - b.leaf!);
    const { root, proofs } = airdropTree(claimers.map((r) => ({ index: BigInt(r.leaf!), account: r.account as `0x${string}`, amount: r.amount })));
    expect(frozen!.root).toBe(root);
    for (const r of claimers) {
      const claim = await airdropClaimOf({ db: db(), airdropId: "pr", userId: r.userId });
      expect(claim!.proof).toEqual(proofs[r.leaf!]);
      expect(StandardMerkleTree.verify(root, ENCODING, [r.leaf!, r.account!, r.amount.toString()], claim!.proof!)).toBe(true);
    }
    expect(await airdropClaimOf({ db: db(), airdropId: "pr", userId: "m3" })).toMatchObject({ leaf: null, proof: null });
    expect(await airdropClaimOf({ db: db(), airdropId: "pr", userId: "own" })).toBeNull();
  });

  it("pays the top ranks their amounts, and two freezes racing write it once", async () => {
    await endedAirdrop("top", { rule: "top", amounts: [300n, 200n, 100n] });
    const results = await Promise.all([freezeAirdrop({ db: db(), airdropId: "top", now: T }), freezeAirdrop({ db: db(), airdropId: "top", now: T })]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await db().select().from(airdropAllocation).where(eq(airdropAllocation.airdropId, "top")).orderBy(airdropAllocation.rank);
    expect(rows.map((r) => [r.userId, r.amount, r.leaf])).toEqual([
      ["m0", 300n, 0],
      ["m1", 200n, 1],
      ["m2", 100n, 2],
    ]);
  });

  describe("on the chain", () => {
    let chain: LocalChain;
    beforeAll(async () => {
      chain = await startLocalChain();
    });
    afterAll(() => chain.stop());

    it("opens a round with the frozen root, pays a stored proof's claim once, and refuses another member's amount", async () => {
      const { addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
      const transport = http(chain.url);
      const client = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
      const operator = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) });
      const [frozen] = await db().select().from(airdrop).where(eq(airdrop.id, "pr"));
      const mined = async (hash: `0x${string}`) => expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
      await mined(
        await operator.writeContract({
          address: addresses.QuestToken,
          abi: questTokenAbi,
          functionName: "approve",
          args: [addresses.AirdropDistributor, frozen!.claimable!],
        }),
      );
      const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400);
      await mined(
        await operator.writeContract({
          address: addresses.AirdropDistributor,
          abi: airdropDistributorAbi,
          functionName: "createRound",
          args: [frozen!.root as `0x${string}`, frozen!.claimable!, deadline],
        }),
      );
      const claim = (await airdropClaimOf({ db: db(), airdropId: "pr", userId: "m4" }))!;
      const args = [0n, BigInt(claim.leaf!), claim.account!, claim.amount, claim.proof!] as const;
      const before = await client.readContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [claim.account!] });
      await mined(await operator.writeContract({ address: addresses.AirdropDistributor, abi: airdropDistributorAbi, functionName: "claim", args }));
      const after = await client.readContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [claim.account!] });
      expect(after - before).toBe(claim.amount);
      await expect(client.simulateContract({ address: addresses.AirdropDistributor, abi: airdropDistributorAbi, functionName: "claim", args })).rejects.toThrow(
        /AlreadyClaimed/,
      );
      const other = (await airdropClaimOf({ db: db(), airdropId: "pr", userId: "m5" }))!;
      const more = [0n, BigInt(other.leaf!), other.account!, other.amount + 1n, other.proof!] as const;
      await expect(
        client.simulateContract({ address: addresses.AirdropDistributor, abi: airdropDistributorAbi, functionName: "claim", args: more }),
      ).rejects.toThrow(/InvalidProof/);
    });
  });
});

describe("freezeEndedAirdrops", () => {
  it("freezes each ended airdrop once and leaves running ones open", async () => {
    await endedAirdrop("job-a", { rule: "top", amounts: [5n] });
    await endedAirdrop("job-b", { rule: "pro_rata", total: 99n });
    await db()
      .update(airdrop)
      .set({ endsAt: new Date(T.getTime() + 86_400_000) })
      .where(eq(airdrop.id, "job-b"));
    const errors: string[] = [];
    const first = await freezeEndedAirdrops({ db: db(), now: T, onError: (id) => errors.push(id) });
    expect(first.map((f) => f.airdropId)).toEqual(["job-a"]);
    expect(await freezeEndedAirdrops({ db: db(), now: T, onError: (id) => errors.push(id) })).toEqual([]);
    const later = await freezeEndedAirdrops({ db: db(), now: new Date(T.getTime() + 86_400_000), onError: (id) => errors.push(id) });
    expect(later.map((f) => f.airdropId)).toEqual(["job-b"]);
    expect(errors).toEqual([]);
  });
});
