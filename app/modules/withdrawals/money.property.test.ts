// Property tests of the whole money flow against a real anvil and a real database: random
// batches of on-chain deposits, scans, mined blocks, treasury credits, withdrawal requests (request
// keys reused), withdrawal job runs, retries, cancels, vault pauses and operator pauses, each batch
// run concurrently. After every batch the ledger, the deposit and withdrawal rows and the chain
// must agree; at the end of a run, driven to quiescence, every deposit is credited once and every
// withdrawal not cancelled is paid once, and the vault holds what the ledger says it does. Two local
// chains (31337 and 31338) run at once; each command picks one, and every check holds per chain. Here
// the withdrawal job and the deposit scanner run in this process, called directly per chain (several
// at once for several processes); money-workers.property.test.ts runs them through the job engine in
// workers.

import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { batches, CONFIRMATIONS, grants, moneyModel, moneyWorld, SCRIPTED, together, type MoneyWorld, type Runner } from "#tests/setup/money-model";
import { followedWithdrawals } from "#tests/setup/outbox-runs";

/** Runs per test run; MONEY_RUNS raises it for a longer hunt (e.g. 80 finds rarer races). */
const RUNS = z.coerce.number().int().positive().default(8).parse(process.env.MONEY_RUNS);

let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld();
}, 120_000);
afterAll(() => world?.two.stop());

/** The job and the scanner of a chain called in this process: `n` at once stand for `n` processes. */
const inProcess: Runner = {
  job: (run, chainId, workers) =>
    together(workers, () =>
      followedWithdrawals({
        db: run.db,
        chains: new Map([[chainId, world.chains.get(chainId)!]]),
        onError: (id, error) => run.unexpected.push(`${id}: ${String(error)}`),
      }),
    ),
  scan: (run, chainId, scanners) => {
    const vault = world.vaults.get(chainId)!;
    return together(scanners, () =>
      scanDeposits({
        db: run.db,
        chainId,
        client: vault.publicClient,
        vault: vault.addresses.DepositVault,
        asset: vault.asset,
        confirmations: CONFIRMATIONS,
      }),
    );
  },
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
