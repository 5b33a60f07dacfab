// Property tests of the whole money flow against a real anvil and a real database: random
// batches of on-chain deposits, scans, mined blocks, treasury credits, withdrawal requests (request
// keys reused), withdrawal job runs, retries, cancels, vault pauses and operator pauses, each batch
// run concurrently. After every batch the ledger, the deposit and withdrawal rows and the chain
// must agree; at the end of a run, driven to quiescence, every deposit is credited once and every
// withdrawal not cancelled is paid once, and the vault holds what the ledger says it does. Here the
// withdrawal job and the deposit scanner run in this process, called directly (several at once for
// several processes); money-workers.property.test.ts runs them through the job engine in workers.

import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { batches, CHAIN_ID, CONFIRMATIONS, grants, moneyModel, moneyWorld, SCRIPTED, together, type MoneyWorld, type Runner } from "#tests/setup/money-model";
import { Q } from "#tests/setup/withdrawal-chain";
import { processWithdrawals } from "./withdrawal-job.server";

/** Runs per test run; MONEY_RUNS raises it for a longer hunt (e.g. 80 finds rarer races). */
const RUNS = z.coerce.number().int().positive().default(8).parse(process.env.MONEY_RUNS);

let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld();
}, 60_000);
afterAll(() => world.node.stop());

/** The job and the scanner called in this process: `n` at once stand for `n` processes. */
const inProcess: Runner = {
  job: (run, workers) =>
    together(workers, () => processWithdrawals({ db: run.db, chains: world.chains, onError: (id, error) => run.unexpected.push(`${id}: ${String(error)}`) })),
  scan: (run, scanners) =>
    together(scanners, () =>
      scanDeposits({
        db: run.db,
        chainId: CHAIN_ID,
        client: world.vault.publicClient,
        vault: world.vault.addresses.DepositVault,
        asset: Q,
        confirmations: CONFIRMATIONS,
      }),
    ),
};

describe("money properties across the ledger, the chain, the deposit scanner and the withdrawal job", () => {
  it("keeps the ledger, the rows and the chain in agreement under concurrent batches, and settles every deposit and withdrawal once", async () => {
    const model = moneyModel(world, inProcess);
    await fc.assert(
      fc.asyncProperty(grants, batches, async (grantList, batchList) => {
        const database = await createTestDatabase();
        try {
          await model.checkRun(database, grantList, batchList);
        } finally {
          await database.close();
        }
      }),
      // Each run drives a real chain: no shrinking, the failing run is reported as it is.
      { numRuns: RUNS, endOnFailure: true, examples: [SCRIPTED] },
    );
    model.expectEverythingMet();
  }, 240_000);
});
