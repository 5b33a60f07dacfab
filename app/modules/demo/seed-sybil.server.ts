import { getAddress, keccak256, parseEther, stringToHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { and, eq } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { memberExclusion, trustCluster, trustClusterMember } from "#db/schema/trust";
import type { Db } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { failureMessage } from "~/lib/result";
import type { ChainRegistry, RegisteredChain } from "~/modules/chain/chain-registry.server";
import { attemptTask, type AttemptInput } from "~/modules/tasks/completions.server";
import { disposableDomainOf } from "~/modules/trust/disposable-email.server";
import { appealExclusion } from "~/modules/trust/appeals.server";
import { excludeMembers } from "~/modules/trust/exclusions.server";
import { scoreMembers } from "~/modules/trust/scoring.server";
import { LOCAL_DEV_FUNDERS } from "~/modules/trust/trust-config.server";
import { profileWallets } from "~/modules/trust/wallet-signals.server";
import { linkWallet } from "~/modules/wallets/wallets.server";

/**
 * The demo's bot farm (issue #38), for the trust screens to find: twelve new members created
 * within minutes of each other, whose wallets one farm address funded (itself funded by a dev
 * account, as a faucet would) and which all swept their coin to one collector, who joined the
 * first project's live season and did the same tasks, with the same answers, within seconds of
 * each other; beside them two honest newcomers, each funded by an address of their own, who did
 * the season at their own pace. Their wallets are profiled on the local chain and the members
 * scored, as the jobs would. Every key is derived from a fixed seed: the same farm on every run.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The dev account that funds the farm's and the honest members' funders, as a faucet would (the deployer, idle by now). */
const FAUCET_DEV_ACCOUNT = 0;
const FARM_NAMES = [
  "moonfarer",
  "satsandsun",
  "degen_dana",
  "blockbard",
  "gaswhisperer",
  "alpha_otter",
  "ledgerlynx",
  "rollup_rae",
  "hodl_hana",
  "mintmarlow",
  "zk_zephyr",
  "validator_vic",
];
/** The honest newcomers, each with their own funder and their own answers. */
const HONEST = [
  {
    name: "noor.haddad",
    joinedDaysAgo: 41,
    activeDaysAgo: 9,
    text: "I provide liquidity on Lumen Swap and wanted to learn how the concentrated ranges work.",
    url: "https://x.com/noorhaddad/status/1849",
  },
  {
    name: "felixbrandt",
    joinedDaysAgo: 12,
    activeDaysAgo: 4,
    text: "A friend from my local meetup showed me the weekly quests; the docs are really clear.",
    url: "https://x.com/felixbrandt/status/5521",
  },
];
/** What every farm account wrote and linked: one text, one post. */
const FARM_TEXT = "Great project, great team, great community. Very bullish on the future of Lumen Swap!";
const FARM_URL = "https://x.com/lumen_gems/status/777";

/** A private key derived from the demo's fixed seed: the same wallet on every run. */
const keyOf = (label: string): Hex => keccak256(stringToHex(`questline demo sybil farm: ${label}`));

export type SeasonTask = { id: string; spec: { type: string; answer?: AttemptInput } };

/** Whether the demo can seed its farm: the local chain with a node. */
export function canSeedSybilFarm(chains: ChainRegistry): boolean {
  return Boolean(chains.get(LOCAL_CHAIN_ID) && chains.config.localRpcs[LOCAL_CHAIN_ID]);
}

export async function seedSybilFarm({
  db,
  chains,
  seasonTasks,
  firstMemberNumber,
  project,
  now,
}: {
  db: Db;
  chains: ChainRegistry;
  /** The season's project and its owner, who excludes the farm. */
  project: { id: string; ownerId: string };
  /** The live season's tasks with the demo's answers (those without one, and not "connect a wallet", are left). */
  seasonTasks: readonly SeasonTask[];
  /** The demo members' numbering goes on from here (demo-member-NN). */
  firstMemberNumber: number;
  now: Date;
}) {
  const local = chains.get(LOCAL_CHAIN_ID);
  if (!local) throw new Error("The demo's farm needs the local chain");
  const send = transfers(local);

  // On chain: the faucet funds the farm and each honest funder; the farm funds its wallets, which sweep to one collector.
  const farm = keyOf("farm");
  const collector = privateKeyToAccount(keyOf("collector")).address;
  const farmWallets = FARM_NAMES.map((_, i) => keyOf(`wallet ${i + 1}`));
  const honestFunders = HONEST.map((_, i) => keyOf(`honest funder ${i + 1}`));
  const honestWallets = HONEST.map((_, i) => keyOf(`honest wallet ${i + 1}`));
  const faucet = DEV_PRIVATE_KEYS[FAUCET_DEV_ACCOUNT]!;
  await send(faucet, addressOf(farm), parseEther("3"));
  for (const funder of honestFunders) await send(faucet, addressOf(funder), parseEther("2"));
  for (const wallet of farmWallets) await send(farm, addressOf(wallet), parseEther("0.2"));
  for (const [i, funder] of honestFunders.entries()) await send(funder, addressOf(honestWallets[i]!), parseEther(i === 0 ? "0.8" : "0.35"));
  for (const wallet of farmWallets) await send(wallet, collector, parseEther("0.19"));

  // The members: the farm's created in one burst three hours ago, the honest ones weeks apart.
  const farmStart = now.getTime() - 3 * HOUR;
  const number = (n: number) => `demo-member-${String(firstMemberNumber + n).padStart(2, "0")}`;
  const newcomers = HONEST.map((h, i) => ({ name: h.name, key: honestWallets[i]!, createdAt: new Date(now.getTime() - h.joinedDaysAgo * DAY), honest: h }));
  const farmed = FARM_NAMES.map((name, i) => ({ name, key: farmWallets[i]!, createdAt: new Date(farmStart + i * 47_000), honest: null }));
  const members = [newcomers[0]!, ...farmed, newcomers[1]!].map((member, n) => ({ ...member, id: number(n) }));
  await db
    .insert(user)
    .values(members.map(({ id, name, createdAt }) => ({ id, name, email: `member${id.slice(-2)}@demo.questline.invalid`, emailVerified: true, createdAt })));
  for (const member of members) {
    const linked = await linkWallet({ db, userId: member.id, address: addressOf(member.key), chainId: LOCAL_CHAIN_ID });
    if (!linked.ok) throw new Error(`demo farm wallet: ${failureMessage(linked)}`);
  }

  // The season's tasks: the farm's all within seconds of each other, same answers; the honest ones days apart, their own.
  const tasks = seasonTasks.flatMap(({ id, spec }) => {
    const answer = spec.type === "wallet_connected" ? ({ kind: "check" } as const) : spec.answer;
    return answer ? [{ id, answer }] : [];
  });
  const attempt = async (userId: string, taskId: string, input: AttemptInput, at: Date) => {
    const result = await attemptTask({ db, taskId, userId, input, now: at });
    if (!result.ok) throw new Error(`demo farm task: ${failureMessage(result)}`);
  };
  for (const [t, { id, answer }] of tasks.entries()) {
    for (const [i, { id: userId, honest }] of members.entries()) {
      const { text, url } = honest ?? { text: FARM_TEXT, url: FARM_URL };
      const input: AttemptInput = answer.kind === "text" ? { kind: "text", text } : answer.kind === "url" ? { kind: "url", url } : answer;
      const at = honest ? now.getTime() - honest.activeDaysAgo * DAY + t * 7 * HOUR : farmStart + HOUR + t * 60_000 + i * 2_000;
      await attempt(userId, id, input, new Date(at));
    }
  }

  // As the jobs would: the wallets' funding read from the chain, then everyone scored.
  const sharedFunders = new Set(LOCAL_DEV_FUNDERS.map((address) => address.toLowerCase()));
  const profiled = await profileWallets({ db, chain: local, sharedFunders, addresses: members.map((m) => addressOf(m.key)), now });
  await scoreMembers({ db, sharedFunders, now, isDisposable: disposableDomainOf });

  // The owner excludes the funder cluster from the project, and one of its accounts appeals: both wait in the team's screens.
  const [cluster] = await db
    .select({ id: trustCluster.id })
    .from(trustClusterMember)
    .innerJoin(trustCluster, eq(trustCluster.id, trustClusterMember.clusterId))
    .where(and(eq(trustClusterMember.userId, members[1]!.id), eq(trustCluster.kind, "funder")));
  if (!cluster) throw new Error("demo farm: the scoring found no funder cluster");
  const excluded = await excludeMembers({
    db,
    projectId: project.id,
    actorId: project.ownerId,
    target: { scope: "project", scopeId: project.id },
    clusterId: cluster.id,
    reason: "Twelve accounts funded by one address and swept back to one collector: one person's farm, not twelve members.",
    now: new Date(now.getTime() - 40 * 60_000),
  });
  if (!excluded.ok) throw new Error(`demo farm exclusion: ${failureMessage(excluded)}`);
  const [exclusion] = await db
    .select({ id: memberExclusion.id })
    .from(memberExclusion)
    .where(and(eq(memberExclusion.userId, members[1]!.id), eq(memberExclusion.projectId, project.id)));
  const appealed = await appealExclusion({
    db,
    userId: members[1]!.id,
    exclusionId: exclusion!.id,
    message: "This is my only account. My brother set up the wallets for our whole gaming club from his exchange withdrawal.",
    now: new Date(now.getTime() - 20 * 60_000),
  });
  if (!appealed.ok) throw new Error(`demo farm appeal: ${failureMessage(appealed)}`);
  return { members: members.length, farm: addressOf(farm), collector, profiled };
}

const addressOf = (key: Hex): Address => privateKeyToAccount(key).address;

/**
 * Plain transfers of native coin on a local chain, signed here with the sender's key and sent
 * through the registry's client; each resolves once mined (the local chain mines every
 * transaction as it comes).
 */
function transfers(chain: RegisteredChain) {
  const nonces = new Map<Address, number>();
  let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | undefined;
  return async (key: Hex, to: Address, value: bigint) => {
    const account = privateKeyToAccount(key);
    fees ??= await chain.client.estimateFeesPerGas();
    const nonce = nonces.get(account.address) ?? (await chain.client.getTransactionCount({ address: account.address, blockTag: "pending" }));
    nonces.set(account.address, nonce + 1);
    const serializedTransaction = await account.signTransaction({
      chainId: chain.id,
      type: "eip1559",
      to: getAddress(to),
      value,
      nonce,
      gas: 21_000n,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = await chain.client.sendRawTransaction({ serializedTransaction });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`The local chain reverted ${hash}`);
  };
}
