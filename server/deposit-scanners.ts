import { createPublicClient } from "viem";
import type { Services } from "~/services/services.server";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { questAsset } from "~/modules/ledger/assets";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { every, failureReporter } from "./every";

export type DepositScannerServices = Pick<Services, "database" | "logger" | "env" | "chains" | "contracts">;

/**
 * One deposit scanner per chain that has a DepositVault and a node to read it from, run every
 * DEPOSIT_SCAN_EVERY_MS with the chain's CONFIRMATIONS. A chain is first read from its
 * DEPOSIT_START_BLOCKS block (the vault's deployment); without one the local chain is read from
 * its first block (and again from there when it was started afresh under a kept database) and
 * another chain from its head when first scanned. Returns a stop function that waits
 * for the runs in progress.
 */
export function startDepositScanners({ database, logger, env, chains, contracts }: DepositScannerServices): () => Promise<void> {
  const jobs: Array<() => Promise<void>> = [];
  for (const [chainId, addresses] of contracts) {
    const transport = chains.transportFor(chainId);
    if (!transport) continue;
    const confirmations = env.confirmations.get(chainId);
    if (!confirmations) {
      logger.warn({ chainId }, "deposits on this chain are not scanned: CONFIRMATIONS names no confirmation count for it");
      continue;
    }
    const client = createPublicClient({ transport });
    const local = chainId === LOCAL_CHAIN_ID;
    let startBlock: bigint | undefined;
    // A node that is down fails every run: logged when it starts, once a minute after, and when it ends.
    const failures = failureReporter({
      report: (err, times) => logger.error({ err, chainId, times }, "scanning deposits failed; it runs again soon"),
      recovered: (times) => logger.info({ chainId, times }, "scanning deposits works again"),
    });
    jobs.push(
      every(
        env.DEPOSIT_SCAN_EVERY_MS,
        async () => {
          const configured = env.depositStartBlocks.get(chainId);
          startBlock ??= configured !== undefined ? BigInt(configured) : local ? 0n : await client.getBlockNumber();
          const scanned = await scanDeposits({
            db: database.db,
            chainId,
            client,
            vault: addresses.DepositVault,
            asset: questAsset(chainId),
            confirmations,
            startBlock,
            rescanIfBehind: local,
          });
          failures.succeeded();
          if (scanned.seen + scanned.credited + scanned.reorged > 0) logger.info({ chainId, ...scanned }, "deposits scanned");
        },
        (err) => failures.failed(err),
      ),
    );
  }
  return async function stop() {
    await Promise.all(jobs.map((stopJob) => stopJob()));
  };
}
