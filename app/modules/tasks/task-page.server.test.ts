import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { campaignStatus } from "./campaign-status";
import { attemptTask } from "./completions.server";
import { howChecked } from "./task-checks";
import { publicTask, taskBlock, taskBrief, taskContext } from "./task-page.server";

let database: Database;
const now = new Date("2026-06-01T12:00:00Z");
const hours = (n: number) => new Date(now.getTime() + n * 3_600_000);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values({ id: "m", email: "m@example.com", name: "M" });
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

/** A "visit a link" task in a campaign with these dates (or in none), with its own window. */
async function visitTask(c: { startsAt: Date; endsAt: Date; publishedAt: Date | null } | null, t: { startsAt?: Date; endsAt?: Date } = {}) {
  let campaignId: string | null = null;
  if (c) {
    campaignId = randomUUID();
    await database.db.insert(campaign).values({ id: campaignId, projectId: "p", slug: campaignId, name: "C", ...c });
  }
  const id = randomUUID();
  await database.db.insert(task).values({
    id,
    projectId: "p",
    campaignId,
    title: "Visit",
    type: "visit_link",
    verification: "none",
    xp: 10,
    config: { url: "https://example.com" },
    publishedAt: hours(-48),
    ...t,
  });
  const [row] = await database.db.select().from(task).where(eq(task.id, id));
  return { task: row!, status: c ? campaignStatus(c, now) : null };
}

describe("taskBlock: what the campaign and task pages say matches what the engine allows", () => {
  const cases = [
    { name: "a live campaign", campaign: { startsAt: hours(-1), endsAt: hours(1), publishedAt: hours(-2) }, block: null },
    { name: "an ended campaign", campaign: { startsAt: hours(-3), endsAt: hours(-1), publishedAt: hours(-4) }, block: { kind: "campaign", status: "ended" } },
    {
      name: "a scheduled campaign",
      campaign: { startsAt: hours(1), endsAt: hours(3), publishedAt: hours(-1) },
      block: { kind: "campaign", status: "scheduled" },
    },
    { name: "a draft campaign", campaign: { startsAt: hours(-1), endsAt: hours(1), publishedAt: null }, block: { kind: "campaign", status: "draft" } },
    { name: "a task that has ended", campaign: null, window: { endsAt: hours(-1) }, block: { kind: "ended" } },
    { name: "a task that opens later", campaign: null, window: { startsAt: hours(2) }, block: { kind: "scheduled", at: hours(2) } },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: ${c.block ? `blocked (${c.block.kind}), and the engine refuses` : "open, and the engine accepts"}`, async () => {
      const { task: t, status } = await visitTask(c.campaign, "window" in c ? c.window : {});
      const block = await taskBlock({ db: database.db, task: t, campaignStatus: status, state: null, userId: "m", now });
      expect(block).toEqual(c.block);
      const attempted = await attemptTask({ db: database.db, taskId: t.id, userId: "m", input: { kind: "visit" }, now });
      expect(attempted.ok).toBe(c.block === null);
    });
  }
});

describe("an on-chain task's page", () => {
  const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  const WALLET = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
  const HASH = `0x${"ab".repeat(31)}cd`;

  async function onchainTask(type: "contract_call" | "nft_hold", config: Record<string, unknown>) {
    const id = randomUUID();
    await database.db.insert(task).values({ id, projectId: "p", title: "On chain", type, verification: "auto", xp: 10, config, publishedAt: hours(-48) });
    const [row] = await database.db.select().from(task).where(eq(task.id, id));
    return row!;
  }

  it("says what to do in words, with the network, its explorer and the amounts as people read them", async () => {
    const call = await onchainTask("contract_call", {
      chainId: 8453,
      contract: CONTRACT,
      functions: [{ selector: "0xa9059cbb", signature: "transfer(address,uint256)" }],
      minValue: "10000000000000000",
      transfer: { token: CONTRACT, minAmount: "1500000", symbol: "USDC", decimals: 6 },
    });
    expect(taskBrief(call, { inviteLink: null })).toEqual({
      type: "contract_call",
      network: "Base",
      chainId: 8453,
      explorer: "https://basescan.org",
      contract: CONTRACT,
      functions: ["transfer(address,uint256)"],
      minValue: "0.01 ETH",
      transfer: { token: CONTRACT, amount: "1.5", symbol: "USDC" },
      actionUrl: "",
      intent: "transaction",
    });
    expect(publicTask(call)).toMatchObject({ network: "Base" });
    expect(howChecked({ type: "contract_call", verification: "auto", network: "Base" })).toBe("Checked on Base");
  });

  it("counts the member's linked wallets, and once approved shows what the chain showed", async () => {
    const nft = await onchainTask("nft_hold", { chainId: LOCAL_CHAIN_ID, contract: CONTRACT, standard: "erc721" });
    expect((await taskContext({ db: database.db, task: nft, userId: "m", now })).onchain).toEqual({ linkedWallets: 0, evidence: null });
    await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "m", address: WALLET, chainId: LOCAL_CHAIN_ID, isPrimary: true });
    await database.db.insert(completion).values({
      id: randomUUID(),
      taskId: nft.id,
      userId: "m",
      period: "once",
      status: "approved",
      verifiedBy: "code",
      evidence: { kind: "chain", chainId: LOCAL_CHAIN_ID, blockNumber: "18204331", blockHash: HASH, txHash: HASH, wallet: WALLET, values: { balance: "1" } },
    });
    const { onchain, state } = await taskContext({ db: database.db, task: nft, userId: "m", now });
    expect(state?.status).toBe("approved");
    expect(onchain).toEqual({
      linkedWallets: 1,
      evidence: { kind: "holding", network: "Questline Local", explorer: null, blockNumber: "18204331", txHash: HASH, wallet: WALLET },
    });
  });
});
