import { getAddress, parseEther } from "viem";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import type { Db } from "~/lib/db.server";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { failureMessage } from "~/lib/result";
import type { AirdropInput } from "~/modules/airdrops/airdrop.schema";
import { saveAirdrop } from "~/modules/airdrops/airdrops.server";
import { freezeEndedAirdrops } from "~/modules/airdrops/freeze.server";
import { roundChainsOf } from "~/modules/airdrops/round.server";
import { chainToken, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { depositFromDevAccount } from "~/modules/chain/contracts.server";
import { depositRefOf, projectDepositRefOf } from "~/modules/deposits/deposit-refs.server";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { questAsset } from "~/modules/ledger/assets";
import { setRewardAsset } from "~/modules/projects/set-reward-asset.server";
import { drawChainsFrom } from "~/modules/rewards/draw-chains.server";
import type { Gate } from "~/modules/trust/trust-types";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";
import type { RewardPoolInput } from "~/modules/rewards/reward.schema";
import { attemptTask, type AttemptInput } from "~/modules/tasks/completions.server";
import { saveTask, type TaskInput } from "~/modules/tasks/tasks.server";
import { linkWallet } from "~/modules/wallets/wallets.server";

/**
 * The demo's part on the local chain, for one project: its treasury funded by a deposit its owner
 * sends from a dev account, a live token reward of each distribution on its live campaign, a live
 * airdrop members earn points in, and an ended airdrop, frozen, whose round the worker opens on
 * chain for the demo members whose linked wallets are anvil's dev accounts 1 to 4 to claim.
 */

const DAY = 86_400_000;
const QUEST = questAsset(LOCAL_CHAIN_ID);
/** What the owner deposits into the project's treasury (each dev account holds 10,000 QUEST on a fresh chain). */
export const DEMO_TREASURY_DEPOSIT = parseEther("8000");
/** The owner's wallet: the dev account that sends the treasury's deposit. */
const OWNER_DEV_ACCOUNT = 5;
/** Members 6 to 9 (demo-member-06 …) sign with dev accounts 1 to 4. */
export const WALLET_MEMBERS = [1, 2, 3, 4].map((account) => ({ account, member: account + 5 }));

type Member = { id: string };

const tokenPool = (input: Omit<RewardPoolInput, "kind" | "asset" | "winners" | "amount" | "rankAmounts"> & Partial<RewardPoolInput>): RewardPoolInput => ({
  kind: "token",
  asset: QUEST,
  winners: null,
  amount: null,
  rankAmounts: null,
  ...input,
});

/** The raffle's own eligibility gate: its draw is for members the trust score does not flag. */
const RAFFLE_GATE: Gate = { combine: "all", rules: [{ kind: "trust_score", min: 50, max: null }] };

/** A live token reward of each distribution (2,050 QUEST escrowed from the treasury); the raffle gated. */
const LIVE_TOKEN_POOLS: (RewardPoolInput & { gate?: Gate })[] = [
  tokenPool({ distribution: "fcfs", winners: 20, amount: parseEther("10") }),
  { ...tokenPool({ distribution: "raffle", winners: 5, amount: parseEther("50") }), gate: RAFFLE_GATE },
  tokenPool({ distribution: "ranking", winners: 3, rankAmounts: [parseEther("300"), parseEther("200"), parseEther("100")] }),
  tokenPool({ distribution: "everyone", amount: parseEther("1000") }),
];

const airdropTasks = (
  name: string,
  site: string,
): (Omit<TaskInput, "description" | "recurrence" | "startsAt" | "endsAt" | "cap" | "campaignId" | "published"> & { answer: AttemptInput })[] => [
  { title: `Add liquidity on ${name}`, type: "visit_link", verification: "none", xp: 40, config: { url: `${site}/pool` }, answer: { kind: "visit" } },
  {
    title: `${name} liquidity quiz`,
    type: "quiz",
    verification: "auto",
    xp: 60,
    config: { question: "What do liquidity providers earn on every swap?", answers: ["fees", "trading fees"], retryDelaySeconds: 30 },
    answer: { kind: "answer", answer: "fees" },
  },
];

export async function seedOnChain({
  db,
  chains,
  project,
  members,
  now,
  next,
}: {
  db: Db;
  chains: ChainRegistry;
  project: { id: string; name: string; site: string; ownerId: string; liveCampaignId: string };
  members: Member[];
  now: Date;
  /** The demo's seeded random numbers, in [0, 1). */
  next: () => number;
}) {
  const local = chains.vaultChains().find((chain) => chain.id === LOCAL_CHAIN_ID);
  const rpcUrl = chains.config.localRpcs[LOCAL_CHAIN_ID];
  if (!local || !rpcUrl) throw new Error("The demo's chain part needs the local chain with Questline's contracts");
  const at = (days: number) => new Date(now.getTime() + days * DAY);

  // Wallets: the owner's, and four members'; each signed on the local chain.
  const wallets = [{ member: 1, account: OWNER_DEV_ACCOUNT }, ...WALLET_MEMBERS];
  for (const { member, account } of wallets) {
    const linked = await linkWallet({ db, userId: members[member - 1]!.id, address: getAddress(DEV_ADDRESSES[account]!), chainId: LOCAL_CHAIN_ID });
    if (!linked.ok) throw new Error(`demo wallet: ${linked.message}`);
  }

  // The owner deposits into the vault with the project's reference; the scanner credits the treasury.
  await depositFromDevAccount({
    rpcUrl,
    contracts: local.contracts,
    key: DEV_PRIVATE_KEYS[OWNER_DEV_ACCOUNT],
    amount: DEMO_TREASURY_DEPOSIT,
    ref: await projectDepositRefOf({ db, projectId: project.id }),
  });
  const draw = drawChainsFrom(chains).get(LOCAL_CHAIN_ID);
  for (let credited = 0, tries = 0; credited === 0; tries++) {
    if (tries > local.confirmations) throw new Error("demo: the treasury's deposit was not credited");
    if (tries > 0) await draw?.mine?.();
    ({ credited } = await scanDeposits({ db, chainId: local.id, client: local.client, vault: local.vault, asset: QUEST, confirmations: local.confirmations }));
  }

  // The project pays its rewards in QUEST on the local chain (its Edit page's Rewards token).
  const chosen = await setRewardAsset({ db, chains, projectId: project.id, actorId: project.ownerId, asset: QUEST });
  if (!chosen.ok) throw new Error(`demo rewards token: ${failureMessage(chosen)}`);

  for (const { gate, ...input } of LIVE_TOKEN_POOLS) {
    const created = await createRewardPool({ db, campaignId: project.liveCampaignId, actorId: project.ownerId, input, gate, now });
    if (!created.ok) throw new Error(`demo token reward: ${failureMessage(created)}`);
  }

  const ended = await airdropWithTasks(db, project, {
    input: {
      name: `${project.name} Genesis Drop`,
      slug: "genesis-drop",
      description: "For the first liquidity providers: 1,500 QUEST shared by points. Claim your share from your wallet.",
      asset: QUEST,
      rule: "pro_rata",
      total: parseEther("1500"),
      rankAmounts: null,
      minPoints: 0,
      startsAt: at(-30),
      endsAt: at(-2),
      claimDeadline: at(28),
      published: true,
    },
    savedAt: at(-31),
  });
  const live = await airdropWithTasks(db, project, {
    input: {
      name: `${project.name} Liquidity Drop`,
      slug: "liquidity-drop",
      description: "2,000 QUEST shared by points when it ends: every task here earns points.",
      asset: QUEST,
      rule: "pro_rata",
      total: parseEther("2000"),
      rankAmounts: null,
      minPoints: 0,
      startsAt: at(-10),
      endsAt: at(20),
      claimDeadline: at(50),
      published: true,
    },
    savedAt: at(-11),
  });

  // The ended airdrop's points: the four members with wallets did both tasks (100 points, a
  // 312.5 QUEST share each); members 10 and 11, without a wallet, the first (40 points: their
  // 125 QUEST go back to the treasury at the freeze). The live one's: members at random.
  const done = async (taskIds: { id: string; answer: AttemptInput }[], userId: string, when: Date) => {
    for (const { id, answer } of taskIds) {
      const result = await attemptTask({ db, taskId: id, userId, input: answer, now: when });
      if (!result.ok) throw new Error(`demo airdrop task: ${failureMessage(result)}`);
    }
  };
  for (const { member } of WALLET_MEMBERS) await done(ended.tasks, members[member - 1]!.id, at(-25 + member));
  for (const member of [10, 11]) await done(ended.tasks.slice(0, 1), members[member - 1]!.id, at(-20 + member));
  for (const { id: userId } of members.slice(1)) {
    if (next() < 0.4) continue;
    await done(
      live.tasks.filter(() => next() < 0.7),
      userId,
      at(-10 + next() * 9),
    );
  }

  // The ended airdrop, frozen as the worker does at its end. Its round is the worker's: it opens
  // it on chain within seconds of the start (funding, approval, opening: a transaction each).
  await freezeEndedAirdrops({
    db,
    now,
    onError: (airdropId, error) => {
      throw new Error(`demo airdrop ${airdropId} was not frozen`, { cause: error });
    },
  });
  await seedStablecoinDeposits({ db, chains, members });
  return { endedAirdropId: ended.airdrop, liveAirdropId: live.airdrop };
}

/** What each demo member with a wallet deposits of the second local chain's stand-in USDC (6 decimals). */
export const DEMO_STABLECOIN_DEPOSIT = 250_000_000n;

/**
 * Money on a second chain and in a second token: where the second local chain runs with its
 * vault, the demo members with wallets each deposit 250 USDC into it from their own dev account
 * under their own reference, credited by the deposit scan, so their Balance shows a balance per
 * chain and token and they can withdraw it there.
 */
async function seedStablecoinDeposits({ db, chains, members }: { db: Db; chains: ChainRegistry; members: Member[] }) {
  const second = chains.vaultChains().find((chain) => chain.id === SECOND_LOCAL_CHAIN_ID);
  const rpcUrl = chains.config.localRpcs[SECOND_LOCAL_CHAIN_ID];
  const usdc = second && chainToken(second, "USDC");
  if (!second || !rpcUrl || !usdc) return;
  for (const { member, account } of WALLET_MEMBERS) {
    await depositFromDevAccount({
      rpcUrl,
      contracts: second.contracts,
      key: DEV_PRIVATE_KEYS[account]!,
      amount: DEMO_STABLECOIN_DEPOSIT,
      ref: await depositRefOf({ db, userId: members[member - 1]!.id }),
      token: usdc.address,
    });
  }
  const draw = drawChainsFrom(chains).get(second.id);
  let credited = 0;
  for (let tries = 0; credited < WALLET_MEMBERS.length; tries++) {
    if (tries > second.confirmations) throw new Error("demo: the members' stablecoin deposits were not credited");
    if (tries > 0) await draw?.mine?.();
    const scanned = await scanDeposits({
      db,
      chainId: second.id,
      client: second.client,
      vault: second.vault,
      asset: questAsset(second.id),
      tokens: second.tokens,
      confirmations: second.confirmations,
    });
    credited += scanned.credited;
  }
}

/** An airdrop saved (and escrowed) before it started, with two tasks that earn its points. */
async function airdropWithTasks(
  db: Db,
  project: { id: string; name: string; site: string },
  { input, savedAt }: { input: AirdropInput; savedAt: Date },
): Promise<{ airdrop: string; tasks: { id: string; answer: AttemptInput }[] }> {
  const saved = await saveAirdrop({ db, projectId: project.id, input, distributorChains: new Set([LOCAL_CHAIN_ID]), now: savedAt });
  if (!saved.ok) throw new Error(`demo airdrop: ${failureMessage(saved)}`);
  const tasks = [];
  for (const { answer, ...fields } of airdropTasks(project.name, project.site)) {
    const task = await saveTask({
      db,
      projectId: project.id,
      input: {
        ...fields,
        description: "",
        recurrence: "once",
        startsAt: null,
        endsAt: null,
        cap: null,
        campaignId: null,
        airdropId: saved.airdrop.id,
        published: true,
      },
      now: savedAt,
    });
    if (!task.ok) throw new Error(`demo airdrop task: ${failureMessage(task)}`);
    tasks.push({ id: task.task.id, answer });
  }
  return { airdrop: saved.airdrop.id, tasks };
}

/** Whether the registry has the local chain with Questline's contracts and an operator: what the chain part needs. */
export function canSeedOnChain(chains: ChainRegistry): boolean {
  return Boolean(chains.config.localRpcs[LOCAL_CHAIN_ID]) && roundChainsOf(chains).has(LOCAL_CHAIN_ID);
}
