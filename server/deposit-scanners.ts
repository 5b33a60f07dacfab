import type { Services } from "~/services/services.server";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { questAsset } from "~/modules/ledger/assets";
import { every, failureReporter } from "./every";

export type DepositScannerServices = Pick<Services, "database" | "logger" | "env" | "chains">;

/**
 * One deposit scanner per vault chain of the registry (a DepositVault, a node and a confirmation
 * count), run every DEPOSIT_SCAN_EVERY_MS. A chain is first read from its start block
 * (DEPOSIT_START_BLOCKS, the vault's deployment); without one the local chain is read from its
 * first block (and again from there when it was started afresh under a kept database) and another
 * chain from its head when first scanned. Returns a stop function that waits for the runs in
 * progress.
 */
export function startDepositScanners({ database, logger, env, chains }: DepositScannerServices): () => Promise<void> {
  const jobs = chains.vaultChains().map((chain) => {
    let startBlock = chain.startBlock ?? undefined;
    // A node that is down fails every run: logged when it starts, once a minute after, and when it ends.
    const failures = failureReporter({
      report: (err, times) => logger.error({ err, chainId: chain.id, times }, "scanning deposits failed; it runs again soon"),
      recovered: (times) => logger.info({ chainId: chain.id, times }, "scanning deposits works again"),
    });
    return every(
      env.DEPOSIT_SCAN_EVERY_MS,
      async () => {
        startBlock ??= chain.local ? 0n : await chain.client.getBlockNumber();
        const scanned = await scanDeposits({
          db: database.db,
          chainId: chain.id,
          client: chain.client,
          vault: chain.vault,
          asset: questAsset(chain.id),
          confirmations: chain.confirmations,
          startBlock,
          rescanIfBehind: chain.local,
        });
        failures.succeeded();
        if (scanned.seen + scanned.credited + scanned.reorged > 0) logger.info({ chainId: chain.id, ...scanned }, "deposits scanned");
      },
      (err) => failures.failed(err),
    );
  });
  return async function stop() {
    await Promise.all(jobs.map((stopJob) => stopJob()));
  };
}
