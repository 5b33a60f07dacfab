import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, onchainEventMatch, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { loadEnv } from "~/services/env.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { deployOnchainFixtures, SWAP_EVENT, type OnchainFixtures } from "#tests/setup/onchain-fixtures";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { startJobRunner } from "#tests/setup/job-runner";

let chain: LocalChain;
let fx: OnchainFixtures;
let database: Database;

beforeAll(async () => {
  chain = await startLocalChain();
  fx = await deployOnchainFixtures(chain.url);
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await chain?.stop();
});

describe("startJobs: onchain-events and onchain-reorgs", () => {
  it("records a live event task's events on the chain's new heads, and voids a completion whose transaction a reorg removed", async () => {
    const db = database.db;
    await db.insert(project).values({ id: "p", slug: "p", name: "P" });
    await db.insert(user).values({ id: "m", email: "m@example.com", name: "m" });
    await db.insert(walletAddress).values({ id: randomUUID(), userId: "m", address: fx.address(2), chainId: LOCAL_CHAIN_ID });
    const taskId = randomUUID();
    await db.insert(task).values({
      id: taskId,
      projectId: "p",
      title: "Swap",
      type: "event_emitted",
      verification: "auto",
      xp: 5,
      publishedAt: new Date(Date.now() - 86_400_000),
      config: { chainId: LOCAL_CHAIN_ID, contract: fx.swap, event: SWAP_EVENT, memberArg: "sender", minArg: null, actionUrl: "" },
    });
    // The tickers send their first jobs at start and the next in an hour: only new heads bring the runs below.
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-onchain-jobs-")), DEPOSIT_SCAN_EVERY_MS: "3600000" });
    const chains = localRegistry({ url: chain.url, confirmations: 1 });
    const logger = createLogger("silent");
    const errors = vi.spyOn(logger, "error");
    const { stop } = await startJobRunner({ database, logger, env, chains }, { only: ["onchain-events", "onchain-reorgs"] });
    try {
      const swapped = await fx.send(2, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [3n] });
      await vi.waitFor(
        async () =>
          expect((await db.select().from(onchainEventMatch).where(eq(onchainEventMatch.taskId, taskId))).map((m) => m.txHash)).toEqual([swapped.hash]),
        { timeout: 20_000, interval: 50 },
      );
      expect(await attemptTask({ db, taskId, userId: "m", input: { kind: "check" }, chains })).toMatchObject({ ok: true, status: "approved" });
      // The swap's block is replaced; the reorg's new head brings the run that voids the completion.
      await fx.rpc("anvil_reorg", [1, []]);
      await vi.waitFor(
        async () => {
          const [row] = await db.select().from(completion).where(eq(completion.taskId, taskId));
          if (row?.status !== "rejected") await fx.mine(1);
          expect(row?.status).toBe("rejected");
        },
        { timeout: 20_000, interval: 300 },
      );
    } finally {
      await stop();
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
