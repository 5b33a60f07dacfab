import type { Job, Queue } from "pg-boss";
import { z } from "zod";
import type { Services } from "~/services/services.server";
import { scanClaims } from "~/modules/airdrops/claims.server";
import { freezeEndedAirdrops } from "~/modules/airdrops/freeze.server";
import { processAirdropRounds, roundChainsOf } from "~/modules/airdrops/round.server";
import { followHeads, type HeadFollowers } from "~/modules/chain/head-follower.server";
import { followOperatorOutbox } from "~/modules/chain/operator-outbox.server";
import { runDiscordRoles } from "~/modules/community/role-grant-job.server";
import { sendTelegramNotifications } from "~/modules/notifications/telegram.server";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { JOB_QUEUE_NAMES, type JobQueueName, type JobRun } from "~/modules/jobs/queues";
import { openRunLeases, stillClaimed, takeoverSweep } from "~/modules/jobs/takeover.server";
import { expireWindows } from "~/modules/leaderboards/leaderboards.server";
import { questAsset } from "~/modules/ledger/assets";
import { purgeExpired } from "~/modules/maintenance/purge-expired.server";
import { emitDueEvents } from "~/modules/events/due-events.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { notifyPendingEvents } from "~/modules/notifications/fanout.server";
import { sendDigests, sendNotificationMails } from "~/modules/notifications/mail.server";
import { runWebhooks } from "~/modules/webhooks/webhook-job.server";
import { countTrendingTasks, TRENDING_EVERY_MS } from "~/modules/tasks/trending.server";
import { scoreMembers } from "~/modules/trust/scoring.server";
import { disposableDomainOf } from "~/modules/trust/disposable-email.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { scanEventTasks } from "~/modules/tasks/event-tasks.server";
import { checkOnchainReorgs } from "~/modules/tasks/onchain-reorgs.server";
import { drawChainsFrom } from "~/modules/rewards/draw-chains.server";
import { processWithdrawals } from "~/modules/withdrawals/withdrawal-job.server";
import { withdrawalChainsOf } from "~/modules/withdrawals/withdrawal-chain.server";
import { PROFILE_BATCH, profileWallets } from "~/modules/trust/wallet-signals.server";
import { failureReporter } from "./failure-reporter";

/** `mailer`: the notification mails' sender (by default built from the env, as the web process builds its own). */
export type JobServices = Pick<Services, "database" | "logger" | "env" | "chains" | "jobs"> & { mailer?: Mailer };

/** A job's payload: the key it runs for (a chain's id, or `all`). Parsed, like every input. */
const payload = z.object({ key: z.string().min(1).max(40) });
type Payload = z.infer<typeof payload>;

/**
 * How a queue is fed: every `everyMs` by a ticker in each worker process, or by a cron schedule.
 * `heads`: also at once on each new head of the key's chain, where its node offers a WebSocket
 * (the ticker stays, as the fallback and for the chains without one).
 */
type Feed = { everyMs: number; heads?: true } | { cron: string };

type JobDefinition = { queue: JobQueueName; keys: string[]; feed: Feed; run: (key: string) => Promise<void> };

/**
 * Every queue: at most one job queued and one running per key (`stately`), however many workers
 * send ticks. A failed run is retried after 1, 2, 4… s (at most 30 s), then stays `failed` for
 * operators (/operator/jobs). A run whose process died is taken over within a few seconds (its
 * lease is gone, app/modules/jobs/takeover.server.ts), and shown as taken over, not failed; the
 * 10 s heartbeat is the engine's own backstop. Finished jobs are kept six hours, for the operators'
 * page and the cluster's checks.
 */
const QUEUE_OPTIONS: Omit<Queue, "name"> = {
  policy: "stately",
  retryLimit: 3,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 30,
  heartbeatSeconds: 10,
  deleteAfterSeconds: 6 * 3600,
  notify: true,
} as Omit<Queue, "name">;

const ALL = "all";

/** How often each job process looks for runs whose process died (a run is taken over on its second sighting). */
const TAKEOVER_SWEEP_MS = 1_000;

/** The platform's jobs with their handlers, bound to this process's services. */
export function jobDefinitions(services: JobServices): JobDefinition[] {
  const { database, logger, env, chains } = services;
  const db = database.db;
  const mailer = services.mailer ?? createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db, logger });
  const mailing = { db, mailer, appName: env.APP_NAME, appUrl: env.APP_URL, secret: env.AUTH_SECRET, logger };
  const vaultChains = new Map(chains.vaultChains().map((chain) => [String(chain.id), chain]));
  const withdrawalChains = withdrawalChainsOf(chains);
  const drawChains = drawChainsFrom(chains);
  const roundChains = roundChainsOf(chains);
  /** The chains whose operator signs (withdrawals, airdrop rounds): each has its outbox follower. */
  const operatorChains = new Map(chains.vaultChains().flatMap((chain) => (chain.operator ? [[chain.id, chain] as const] : [])));
  /** Every chain with a node: where on-chain tasks' events are read and their evidence watched (a chain without a confirmation count with 1). */
  const taskChains = new Map(chains.list.map((chain) => [chain.id, { ...chain, confirmations: chain.confirmations ?? 1 }]));
  /** Where each chain's scan first starts; after that its stored cursor is read (this process's memory only). */
  const startBlocks = new Map<string, bigint>();
  const chainOf = <T>(all: Map<number, T>, key: string) => {
    const chain = all.get(Number(key));
    if (!chain) throw new Error(`no chain ${key} is configured in this process`);
    return chain;
  };
  return [
    {
      queue: "reward-distribution",
      keys: [ALL],
      // Reward pools are paid within REWARDS_EVERY_MS of their campaign's end, exactly once.
      feed: { everyMs: env.REWARDS_EVERY_MS },
      run: async () => {
        const paid = await distributeEndedCampaigns({
          db,
          chains: drawChains,
          // Raffle entrants' ids in their proofs are keyed by the server's secret: stable, and unlinkable between pools.
          entrantKey: env.AUTH_SECRET,
          // Follows are re-checked through the configured providers before a campaign's pools are paid, holdings on their chains.
          social: env.social,
          onchain: chains,
          log: logger,
          onPoolError: (poolId, err) => logger.error({ err, poolId }, "paying a reward pool failed; it stays open for the next run"),
        });
        if (paid.pools + paid.frozen > 0)
          logger.info(paid, "paid reward pools of ended campaigns (raffles: entrants frozen first, drawn when their block comes)");
      },
    },
    {
      queue: "airdrop-freeze",
      keys: [ALL],
      feed: { everyMs: env.REWARDS_EVERY_MS },
      run: async () => {
        const frozen = await freezeEndedAirdrops({
          db,
          // Holdings are read again on their chains before an airdrop's board is read.
          chains,
          log: logger,
          onError: (airdropId, err) => logger.error({ err, airdropId }, "freezing an airdrop failed; it is tried again next run"),
        });
        for (const { airdropId, allocations, leaves } of frozen) logger.info({ airdropId, allocations, leaves }, "airdrop frozen");
      },
    },
    {
      queue: "airdrop-rounds",
      keys: [ALL],
      feed: { everyMs: env.WITHDRAW_EVERY_MS },
      run: async () => {
        const moved = await processAirdropRounds({
          db,
          chains: roundChains,
          onError: (airdropId, err) => logger.error({ err, airdropId }, "an airdrop round step failed; it is tried again next run"),
        });
        if (moved.started + moved.advanced + moved.sent + moved.previousChain > 0) logger.info(moved, "airdrop rounds moved on");
        for (const chain of roundChains.values()) {
          const claims = await scanClaims({
            db,
            chainId: chain.id,
            client: chain.client,
            distributor: chain.contracts.AirdropDistributor,
            confirmations: chain.confirmations,
            startBlock: chain.startBlock ?? 0n,
            rescanIfBehind: chain.local,
          });
          if (claims > 0) logger.info({ chainId: chain.id, claims }, "airdrop claims recorded");
        }
      },
    },
    {
      queue: "deposit-scan",
      keys: [...vaultChains.keys()],
      // Deposits are credited as soon as the block giving their last required confirmation comes
      // (its head, over the node's WebSocket), else within DEPOSIT_SCAN_EVERY_MS of it.
      feed: { everyMs: env.DEPOSIT_SCAN_EVERY_MS, heads: true },
      run: async (key) => {
        const chain = vaultChains.get(key);
        if (!chain) throw new Error(`no vault chain ${key} is configured in this process`);
        // A chain is first read from its start block (DEPOSIT_START_BLOCKS), the local chain from its
        // first block, another from its head; after that from the stored cursor.
        const startBlock = startBlocks.get(key) ?? chain.startBlock ?? (chain.local ? 0n : await chain.client.getBlockNumber());
        startBlocks.set(key, startBlock);
        const scanned = await scanDeposits({
          db,
          chainId: chain.id,
          client: chain.client,
          vault: chain.vault,
          asset: questAsset(chain.id),
          tokens: chain.tokens,
          confirmations: chain.confirmations,
          startBlock,
          rescanIfBehind: chain.local,
        });
        if (scanned.seen + scanned.credited + scanned.reorged > 0) logger.info({ chainId: chain.id, ...scanned }, "deposits scanned");
      },
    },
    {
      queue: "onchain-events",
      keys: [...taskChains.keys()].map(String),
      // Each live event task's cursor is brought up to the chain's confirmed head on each new head,
      // else within DEPOSIT_SCAN_EVERY_MS (a member's check reads on from it).
      feed: { everyMs: env.DEPOSIT_SCAN_EVERY_MS, heads: true },
      run: async (key) => {
        const chain = chainOf(taskChains, key);
        const scanned = await scanEventTasks({
          db,
          chain,
          onError: (taskId, err) => logger.error({ err, taskId }, "reading an event task's events failed; it is tried again next run"),
        });
        if (scanned.recorded > 0) logger.info({ chainId: chain.id, ...scanned }, "on-chain task events recorded");
      },
    },
    {
      queue: "onchain-reorgs",
      keys: [...taskChains.keys()].map(String),
      // The blocks of on-chain completions are read again on each new head until they are settled.
      feed: { everyMs: env.DEPOSIT_SCAN_EVERY_MS, heads: true },
      run: async (key) => {
        const chain = chainOf(taskChains, key);
        const checked = await checkOnchainReorgs({ db, chain });
        if (checked.moved + checked.voided + checked.droppedMatches > 0) logger.warn({ chainId: chain.id, ...checked }, "a reorg moved on-chain evidence");
      },
    },
    {
      queue: "operator-outbox",
      keys: [...operatorChains.keys()].map(String),
      // The operator's transactions on the chain (withdrawals, airdrop rounds) are followed to the
      // confirmation depth, broadcast again when lost and replaced with a higher fee when stuck, on
      // each new head and at least every WITHDRAW_EVERY_MS; the features settle from what it records.
      feed: { everyMs: env.WITHDRAW_EVERY_MS, heads: true },
      run: async (key) => {
        const followed = await followOperatorOutbox({
          db,
          chainId: Number(key),
          chain: chainOf(operatorChains, key),
          timeoutMs: env.WITHDRAWAL_TIMEOUT_MS,
          bumpAfterMs: env.OPERATOR_BUMP_AFTER_MS,
          onError: (intentKey, err) => logger.error({ err, intentKey }, "following an operator transaction failed; it is tried again next run"),
        });
        if (Object.values(followed).some((n) => n > 0)) logger.info({ chainId: Number(key), ...followed }, "operator transactions moved on");
      },
    },
    {
      queue: "withdrawals",
      keys: [...withdrawalChains.keys()].map(String),
      // Withdrawals are sent, followed and confirmed every WITHDRAW_EVERY_MS (a second by default).
      feed: { everyMs: env.WITHDRAW_EVERY_MS },
      run: async (key) => {
        const chain = chainOf(withdrawalChains, key);
        const done = await processWithdrawals({
          db,
          chains: new Map([[Number(key), chain]]),
          onError: (withdrawalId, err) => logger.error({ err, withdrawalId }, "a withdrawal step failed; it is tried again next run"),
        });
        if (done.sent + done.confirmed + done.failed > 0) logger.info({ chainId: Number(key), ...done }, "withdrawals moved on");
      },
    },
    {
      queue: "leaderboard-windows",
      keys: [ALL],
      // Days leave the 7- and 30-day boards at midnight UTC; an hourly run (idempotent) catches each soon after.
      feed: { cron: "5 * * * *" },
      run: async () => {
        const expired = await expireWindows({ db });
        logger.debug({ expired }, "expired leaderboard window days");
      },
    },
    {
      queue: "trending-tasks",
      keys: [ALL],
      feed: { everyMs: TRENDING_EVERY_MS },
      run: async () => {
        const kept = await countTrendingTasks({ db });
        logger.debug({ kept }, "counted trending tasks");
      },
    },
    {
      queue: "notifications",
      keys: [ALL],
      // Events become members' notifications within a second of their change (decision 061).
      feed: { everyMs: 1_000 },
      run: async () => {
        const made = await notifyPendingEvents({ db, chains });
        if (made.notifications > 0) logger.info(made, "notifications made from events");
      },
    },
    {
      queue: "webhooks",
      keys: [ALL],
      // Events become deliveries to the projects' endpoints, and due deliveries are sent, every second (decision 063).
      feed: { everyMs: 1_000 },
      run: async () => {
        const done = await runWebhooks({ db, tokenKey: env.social.tokenKey, allowLoopback: !env.isPublic });
        if (done.sent > 0 || done.disabled.length > 0) logger.info(done, "webhook deliveries sent");
      },
    },
    {
      queue: "discord-roles",
      keys: [ALL],
      // Who should hold each project's reward roles is recomputed, and due grants and removals are asked of Discord, every 10 s.
      feed: { everyMs: 10_000 },
      run: async () => {
        const done = await runDiscordRoles({ db, social: env.social, log: logger });
        if (done.attempted > 0 || done.held > 0 || done.removed > 0) logger.info(done, "discord roles");
      },
    },
    {
      queue: "notification-telegram",
      keys: [ALL],
      // Notifications members chose to read on Telegram, sent by the platform's bot at most once each, every 5 s.
      feed: { everyMs: 5_000 },
      run: async () => {
        const done = await sendTelegramNotifications({ db, social: env.social, appUrl: env.APP_URL, logger });
        if (done.sent > 0 || done.failed > 0) logger.info(done, "telegram notifications sent");
      },
    },
    {
      queue: "notification-mails",
      keys: [ALL],
      feed: { everyMs: 10_000 },
      run: async () => {
        const sent = await sendNotificationMails({ ...mailing, maxPerHour: env.NOTIFY_MAILS_PER_HOUR });
        if (Object.values(sent).some((n) => typeof n === "number" && n > 0)) logger.info(sent, "notification mails sent");
      },
    },
    {
      queue: "notification-digests",
      keys: [ALL],
      // A member's digest goes out once a day, in the first run after midnight UTC that finds notifications waiting for it.
      feed: { cron: "5 * * * *" },
      run: async () => {
        const sent = await sendDigests(mailing);
        logger.debug(sent, "notification digests sent");
      },
    },
    {
      queue: "due-events",
      keys: [ALL],
      feed: { everyMs: 60_000 },
      run: async () => {
        const emitted = await emitDueEvents({ db });
        if (emitted > 0) logger.info({ emitted }, "airdrops whose claims close within 24 hours recorded");
      },
    },
    {
      queue: "purge",
      keys: [ALL],
      feed: { cron: "*/10 * * * *" },
      run: async () => {
        const purged = await purgeExpired({ db });
        logger.debug({ purged }, "purged expired rows");
      },
    },
    {
      queue: "trust-wallets",
      keys: [...taskChains.keys()].map(String),
      // Linked wallets with no profile on the chain (or one a week old) are read, a batch of PROFILE_BATCH every 30 s.
      feed: { everyMs: 30_000 },
      run: async (key) => {
        const chain = chainOf(taskChains, key);
        const profiled = await profileWallets({ db, chain, sharedFunders: env.trust.sharedFunders, limit: PROFILE_BATCH });
        if (profiled.profiled > 0) logger.info({ chainId: chain.id, ...profiled }, "wallet funding profiles read");
      },
    },
    {
      queue: "trust-score",
      keys: [ALL],
      // Every member's trust score and the clusters, from the evidence kept so far (decision 059).
      feed: { cron: "*/5 * * * *" },
      run: async () => {
        const scored = await scoreMembers({ db, sharedFunders: env.trust.sharedFunders, isDisposable: disposableDomainOf });
        logger.info(scored, "trust scores computed");
      },
    },
  ];
}

/** Creates every queue (a no-op for those that exist); any process may, the web ones included. */
export async function createQueues({ jobs }: Pick<JobServices, "jobs">) {
  for (const queue of JOB_QUEUE_NAMES) await jobs.createQueue(queue, QUEUE_OPTIONS);
}

/**
 * Runs the platform's jobs in this process (role `worker` or `all`): a handler per queue, and a
 * ticker sending each queue's jobs on its interval (a no-op while one is already queued for that
 * key, so any number of workers can tick) and, for a queue fed by heads, on each new head of a
 * chain that has a WebSocket. `only` limits it to some queues; `tick: false` leaves the sending to
 * the caller. Returns a stop function that finishes the jobs in hand.
 */
export async function startJobs(
  services: JobServices,
  {
    only,
    tick = true,
    onLeasesLost,
  }: {
    only?: JobQueueName[];
    tick?: boolean;
    /** The runs' leases were lost (their connection ended): this process must stop; by default it exits. */
    onLeasesLost?: (error: Error) => void;
  } = {},
) {
  const { jobs, logger, database, chains } = services;
  await createQueues(services);
  const leases = await openRunLeases({
    connection: database.jobConnection,
    onLost:
      onLeasesLost ??
      ((err) => {
        // Other processes now take this one's runs over: running on would let two runs of one key overlap.
        logger.fatal({ err }, "the job runs' leases were lost; stopping this process");
        process.exit(1);
      }),
  });
  const sweep = takeoverSweep({ db: database.db, jobs });
  const sweeper = setInterval(() => {
    sweep()
      .then((taken) => {
        for (const run of taken) logger.warn(run, `the ${run.queue} run was taken over: the process running it ended`);
      })
      .catch((err: unknown) => logger.warn({ err }, "looking for runs to take over failed"));
  }, TAKEOVER_SWEEP_MS);
  sweeper.unref();
  const definitions = jobDefinitions(services).filter((definition) => !only || only.includes(definition.queue));
  const timers: NodeJS.Timeout[] = [];
  /** Per chain, the sends of the queues fed by its heads: one head follower per process serves them all. */
  const onHeads = new Map<string, (() => void)[]>();
  for (const definition of definitions) {
    if (definition.keys.length === 0) continue;
    const streaks = new Map(definition.keys.map((key) => [key, streakOf(services, definition.queue, key)]));
    // Polled every 0.5 s even with notify on: no notification comes when a key's next job is
    // unblocked (its predecessor completed) or a retry comes due, and the default 30 s backstop
    // would leave the chain's job waiting that long.
    const polling = { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 };
    await jobs.work<Payload>(definition.queue, { localConcurrency: definition.keys.length, ...polling }, async ([job]: Job<Payload>[]) => {
      const { key } = payload.parse(job!.data);
      const streak = streaks.get(key) ?? streakOf(services, definition.queue, key);
      // Only under the key's lease, and only while this claim is the job's current attempt (not taken over meanwhile).
      if (!(await leases.take(definition.queue, key))) throw new Error(`another ${definition.queue} run for ${key} is still in hand`);
      try {
        if (!(await stillClaimed({ db: database.db, id: job!.id, retryCount: job!.retryCount })))
          throw new Error(`this ${definition.queue} run was taken over before it started`);
        const ranFrom = Date.now();
        try {
          await definition.run(key);
          streak.succeeded();
          return { ranFrom, ranTo: Date.now() } satisfies JobRun;
        } catch (err) {
          streak.failed(err);
          throw err;
        }
      } finally {
        await leases.release(definition.queue, key);
      }
    });
    if (!tick) continue;
    if ("cron" in definition.feed) {
      await jobs.schedule(definition.queue, definition.feed.cron, { key: ALL }, { tz: "UTC" });
      continue;
    }
    // Sent, the job wakes the queue's workers in every process (the engine's notify) and runs at once
    // unless one for the key is running: then it runs right after it.
    const sendFor = (key: string) =>
      void jobs
        .send(definition.queue, { key }, { singletonKey: key })
        .catch((err: unknown) => logger.warn({ err, queue: definition.queue }, "sending a job failed"));
    const send = () => definition.keys.forEach(sendFor);
    send();
    const timer = setInterval(send, definition.feed.everyMs);
    timer.unref();
    timers.push(timer);
    if (definition.feed.heads) for (const key of definition.keys) onHeads.set(key, [...(onHeads.get(key) ?? []), () => sendFor(key)]);
  }
  const followers: HeadFollowers[] = [];
  if (onHeads.size > 0)
    followers.push(
      followHeads({
        chains: chains.list.filter((chain) => onHeads.has(String(chain.id))),
        onHead: (chainId) => onHeads.get(String(chainId))?.forEach((send) => send()),
        logger,
      }),
    );
  return async function stop() {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(followers.map((follower) => follower.stop()));
    await Promise.all(definitions.map((definition) => jobs.offWork(definition.queue, { wait: true })));
    clearInterval(sweeper);
    await leases.close();
  };
}

/** A queue key's failures, logged when a streak starts, at most once a minute while it lasts, and when it ends. */
function streakOf({ logger }: Pick<JobServices, "logger">, queue: JobQueueName, key: string) {
  return failureReporter({
    report: (err, times) => logger.error({ err, queue, key, times }, `the ${queue} job failed; it is retried`),
    recovered: (times) => logger.info({ queue, key, times }, `the ${queue} job works again`),
  });
}
