import { scanClaims } from "~/modules/airdrops/claims.server";
import { freezeEndedAirdrops } from "~/modules/airdrops/freeze.server";
import { processAirdropRounds, roundChainsOf } from "~/modules/airdrops/round.server";
import { expireWindows } from "~/modules/leaderboards/leaderboards.server";
import { purgeExpired } from "~/modules/maintenance/purge-expired.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { drawChainsFrom } from "~/modules/rewards/draw-chains.server";
import { startDepositScanners, type DepositScannerServices } from "./deposit-scanners";
import { every, failureReporter } from "./every";
import { processWithdrawals } from "~/modules/withdrawals/withdrawal-job.server";
import { withdrawalChainsOf } from "~/modules/withdrawals/withdrawal-chain.server";

const PURGE_EVERY_MS = 10 * 60 * 1000;
/** Days leave the 7- and 30-day boards at midnight UTC; an hourly run (idempotent) catches each soon after. */
const EXPIRE_WINDOWS_EVERY_MS = 60 * 60 * 1000;

/**
 * Background work that runs inside the web process. Returns a stop function that waits for the
 * runs in progress, so shutdown never cuts a job in half.
 */
export function startWorkers(services: DepositScannerServices) {
  const { database, logger, env } = services;
  const withdrawalsOn = withdrawalChainsOf(services.chains);
  const drawChains = drawChainsFrom(services.chains);
  const roundChains = roundChainsOf(services.chains);
  const withdrawalFailures = failureReporter({
    report: (err, times) => logger.error({ err, times }, "the withdrawal job failed; it runs again soon"),
    recovered: (times) => logger.info({ times }, "the withdrawal job works again"),
  });
  const jobs = [
    every(
      PURGE_EVERY_MS,
      async () => {
        const purged = await purgeExpired({ db: database.db });
        logger.debug({ purged }, "purged expired rows");
      },
      (err) => logger.error({ err }, "purge failed; it runs again later"),
    ),
    every(
      EXPIRE_WINDOWS_EVERY_MS,
      async () => {
        const expired = await expireWindows({ db: database.db });
        logger.debug({ expired }, "expired leaderboard window days");
      },
      (err) => logger.error({ err }, "leaderboard window expiry failed; it runs again later"),
    ),
    // Reward pools are paid within REWARDS_EVERY_MS (a minute by default) of their campaign's end,
    // exactly once whichever process runs it.
    every(
      env.REWARDS_EVERY_MS,
      async () => {
        const paid = await distributeEndedCampaigns({
          db: database.db,
          chains: drawChains,
          // Follows are re-checked through the configured providers before a campaign's pools are paid.
          social: env.social,
          log: logger,
          onPoolError: (poolId, err) => logger.error({ err, poolId }, "paying a reward pool failed; it stays open for the next run"),
        });
        if (paid.pools + paid.frozen > 0)
          logger.info(paid, "paid reward pools of ended campaigns (raffles: entrants frozen first, drawn when their block comes)");
      },
      (err) => logger.error({ err }, "reward distribution failed; it runs again soon"),
    ),
    // Airdrops are frozen (allocation and Merkle tree) within REWARDS_EVERY_MS of their end, once whichever process runs it.
    every(
      env.REWARDS_EVERY_MS,
      async () => {
        const frozen = await freezeEndedAirdrops({
          db: database.db,
          onError: (airdropId, err) => logger.error({ err, airdropId }, "freezing an airdrop failed; it is tried again next run"),
        });
        for (const { airdropId, allocations, leaves } of frozen) logger.info({ airdropId, allocations, leaves }, "airdrop frozen");
      },
      (err) => logger.error({ err }, "freezing ended airdrops failed; it runs again soon"),
    ),
    // Frozen airdrops' rounds are funded, opened and swept step by step, and their claims read,
    // every WITHDRAW_EVERY_MS (the operator's pace).
    every(
      env.WITHDRAW_EVERY_MS,
      async () => {
        const moved = await processAirdropRounds({
          db: database.db,
          chains: roundChains,
          onError: (airdropId, err) => logger.error({ err, airdropId }, "an airdrop round step failed; it is tried again next run"),
        });
        if (moved.started + moved.advanced + moved.sent > 0) logger.info(moved, "airdrop rounds moved on");
        for (const chain of roundChains.values()) {
          const claims = await scanClaims({ db: database.db, chainId: chain.id, ...chain, rescanIfBehind: chain.local });
          if (claims > 0) logger.info({ chainId: chain.id, claims }, "airdrop claims recorded");
        }
      },
      (err) => logger.error({ err }, "the airdrop round job failed; it runs again soon"),
    ),
    // Deposits are credited within DEPOSIT_SCAN_EVERY_MS of their last required confirmation.
    startDepositScanners(services),
    // Withdrawals are sent, followed and confirmed every WITHDRAW_EVERY_MS (a second by default).
    every(
      env.WITHDRAW_EVERY_MS,
      async () => {
        const done = await processWithdrawals({
          db: database.db,
          chains: withdrawalsOn,
          timeoutMs: env.WITHDRAWAL_TIMEOUT_MS,
          onError: (withdrawalId, err) => logger.error({ err, withdrawalId }, "a withdrawal step failed; it is tried again next run"),
        });
        withdrawalFailures.succeeded();
        if (done.sent + done.confirmed + done.failed > 0) logger.info(done, "withdrawals moved on");
      },
      (err) => withdrawalFailures.failed(err),
    ),
  ];
  return async function stop() {
    await Promise.all(jobs.map((stopJob) => stopJob()));
  };
}
