/**
 * The platform's background jobs, one queue each in the job engine (decision 031). Each runs per
 * key (a chain's id, or `all`), at most one at a time per key whichever process runs it.
 */
export const JOB_QUEUES = {
  "reward-distribution": { label: "Reward payouts", about: "Pays the reward pools of ended campaigns, after re-checking their follows." },
  "airdrop-freeze": { label: "Airdrop freeze", about: "Freezes ended airdrops: allocation and Merkle tree." },
  "airdrop-rounds": { label: "Airdrop rounds", about: "Funds, opens and sweeps frozen airdrops' rounds on chain, and reads their claims." },
  "deposit-scan": { label: "Deposit scan", about: "Reads a chain's vault for deposits and credits them once confirmed." },
  "onchain-events": {
    label: "On-chain task events",
    about: "Reads the events of a chain's live on-chain tasks (\"emit an event\") up to its confirmed head, for members' checks.",
  },
  "onchain-reorgs": {
    label: "On-chain evidence",
    about: "Reads the blocks of a chain's on-chain completions again until they are settled; a reorg that removed a transaction voids its completion.",
  },
  "operator-outbox": {
    label: "Operator transactions",
    about: "Follows the operator's signed transactions on a chain to their confirmations; re-sends lost ones and raises the fee of stuck ones.",
  },
  withdrawals: { label: "Withdrawals", about: "Sends a chain's withdrawals and confirms or fails them by what their transactions did." },
  "leaderboard-windows": { label: "Leaderboard windows", about: "Takes days that left the 7- and 30-day boards off them (hourly)." },
  "trending-tasks": { label: "Trending tasks", about: "Counts each task's completions of the last 24 hours for the trending lists (every minute)." },
  notifications: { label: "Notifications", about: "Turns what happened into members' notifications: the inbox, and mails by their choice (every second)." },
  webhooks: {
    label: "Webhooks",
    about: "Turns what happened into deliveries to the projects' webhook endpoints and sends those due, retrying over about a day (every second).",
  },
  "discord-roles": {
    label: "Discord roles",
    about: "Grants and takes back projects' Discord reward roles through their bots, retrying until Discord confirms each (every 10 s).",
  },
  "notification-telegram": {
    label: "Notifications by Telegram",
    about: "Sends the notifications members chose to read on Telegram through the platform's bot, each at most once (every 5 s).",
  },
  "notification-mails": {
    label: "Notification mails",
    about: "Sends notification mails, at most NOTIFY_MAILS_PER_HOUR per member an hour; the rest wait for the daily digest (every 10 s).",
  },
  "notification-digests": { label: "Notification digests", about: "Sends each member who chose it, or overflowed, one digest mail a day (hourly)." },
  "due-events": { label: "Due events", about: "Records airdrops whose claims close within 24 hours, for their members' notifications (every minute)." },
  purge: { label: "Purge", about: "Deletes expired codes, limits and development mail (every 10 minutes)." },
  "trust-wallets": {
    label: "Wallet funding",
    about: "Reads on a chain who funded members' linked wallets, where they swept their coin, their age and transactions sent (a batch every 30 s).",
  },
  "trust-score": {
    label: "Trust scores",
    about: "Finds the clusters of members sharing funders, networks, timing, answers or referrals, and scores every member with its reasons (every 5 minutes).",
  },
} as const;

export type JobQueueName = keyof typeof JOB_QUEUES;
export const JOB_QUEUE_NAMES = Object.keys(JOB_QUEUES) as JobQueueName[];

/**
 * What a finished job stores as its output: when its handler really ran (ms since 1970, this
 * machine's clock). The engine's own started_on is the claiming statement's transaction start,
 * which can come before the previous job of the key committed its completion, so only this
 * interval tells whether two runs of one key overlapped.
 */
export type JobRun = { ranFrom: number; ranTo: number };
