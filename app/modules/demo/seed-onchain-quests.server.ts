import { getAddress, parseEther, type Hex } from "viem";
import { saveDemoTasks, type DemoTaskSpec } from "./demo-tasks.server";
import { DEMO_SWAP_FUNCTION, DEMO_SWAP_SELECTOR, ERC721_TRANSFER_EVENT } from "#contracts/demo-signatures";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { demoCollectionAbi } from "#contracts/generated/demo-collection";
import { demoSwapAbi } from "#contracts/generated/demo-swap";
import { questTokenAbi } from "#contracts/generated/quest-token";
import type { Db } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { failureMessage } from "~/lib/result";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { callFromDevAccount } from "~/modules/chain/contracts.server";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { attemptTask, type AttemptInput } from "~/modules/tasks/completions.server";
import type { TaskType } from "~/modules/tasks/task-types";
import { WALLET_MEMBERS } from "./seed-tokens.server";

/**
 * The demo's on-chain quests (issue #37): a live campaign of the first project with one task of
 * each on-chain kind, on the local chain's demo contracts (an ERC-721 to hold, the swap to call,
 * the ERC-721's mint event, the wallet's history, QUEST held at a snapshot block). Each task links
 * to the Demo dApp page, where a member mints and swaps from their wallet. Two demo members with
 * dev-account wallets did some of them already, on chain and through the real checks, so their
 * task pages show the evidence ("Checked on Questline Local at block …").
 */

const DAY = 86_400_000;
const DEMO_DAPP = "/demo-dapp";
/** QUEST each dev account held at the snapshot: every dev account starts with 10,000. */
const SNAPSHOT_MINIMUM = parseEther("100");

function questSpecs({ collection, swap, quest, snapshotBlock }: { collection: Hex; swap: Hex; quest: Hex; snapshotBlock: number }): DemoTaskSpec[] {
  const chainId = LOCAL_CHAIN_ID;
  return [
    {
      title: "Hold a Questline Explorer",
      description: "Mint an Explorer on the Demo dApp (it is free) and keep it in a linked wallet.",
      type: "nft_hold",
      xp: 50,
      config: { chainId, contract: collection, standard: "erc721", minCount: 1, name: "Questline Explorers", actionUrl: DEMO_DAPP },
    },
    {
      title: "Mint an Explorer",
      description: "Every mint of a Questline Explorer to one of your wallets emits a Transfer event: Questline finds it on chain.",
      type: "event_emitted",
      xp: 40,
      config: { chainId, contract: collection, event: ERC721_TRANSFER_EVENT, memberArg: "to", actionUrl: DEMO_DAPP },
    },
    {
      title: "Swap QUEST for USDC",
      description: "Swap at least 1 QUEST on the demo swap, then paste the transaction's hash or let Questline find it.",
      type: "contract_call",
      xp: 80,
      config: {
        chainId,
        contract: swap,
        functions: [{ selector: DEMO_SWAP_SELECTOR, signature: DEMO_SWAP_FUNCTION }],
        transfer: { token: quest, minAmount: parseEther("1").toString(), symbol: "QUEST", decimals: 18 },
        actionUrl: DEMO_DAPP,
      },
    },
    {
      title: "An active wallet",
      description: "A wallet that has sent at least 2 transactions on Questline Local.",
      type: "wallet_activity",
      xp: 20,
      config: { chainId, minTxCount: 2 },
    },
    {
      title: "Held 100 QUEST at the snapshot",
      description: `Your linked wallet held at least 100 QUEST at block ${snapshotBlock.toLocaleString("en")}, when the season's snapshot was taken.`,
      type: "hold_token",
      xp: 30,
      config: { chainId, tokenAddress: quest, minBalance: SNAPSHOT_MINIMUM.toString(), symbol: "QUEST", decimals: 18, snapshotBlock },
    },
  ];
}

/** Whether the demo can seed its on-chain quests: the local chain with its demo contracts. */
export function canSeedOnchainQuests(chains: ChainRegistry): boolean {
  return Boolean(chains.get(LOCAL_CHAIN_ID)?.demo && chains.config.localRpcs[LOCAL_CHAIN_ID]);
}

export async function seedOnchainQuests({
  db,
  chains,
  projectId,
  memberIds,
  now,
}: {
  db: Db;
  chains: ChainRegistry;
  projectId: string;
  /** The demo's members in order (member 1 first). */
  memberIds: string[];
  now: Date;
}) {
  const local = chains.get(LOCAL_CHAIN_ID);
  const rpcUrl = chains.config.localRpcs[LOCAL_CHAIN_ID];
  if (!local?.demo || !local.contracts || !rpcUrl) throw new Error("The demo's on-chain quests need the local chain with its demo contracts");
  const { demo, contracts } = local;

  const campaign = await saveCampaign({
    db,
    projectId,
    input: {
      name: "On-chain Quests",
      slug: "on-chain-quests",
      description: "Quests Questline checks on the chain itself: hold, mint, swap. Try them with the Demo dApp and a wallet on Questline Local.",
      startsAt: new Date(now.getTime() - DAY),
      endsAt: new Date(now.getTime() + 29 * DAY),
      published: true,
    },
    now: new Date(now.getTime() - DAY),
  });
  if (!campaign.ok) throw new Error(`demo on-chain campaign: ${failureMessage(campaign)}`);

  const snapshotBlock = Number(await local.client.getBlockNumber({ cacheTime: 0 }));
  const specs = questSpecs({ collection: demo.DemoCollection, swap: demo.DemoSwap, quest: contracts.QuestToken, snapshotBlock });
  const ids = await saveDemoTasks({ db, projectId, campaignId: campaign.value.id, specs, now: new Date(now.getTime() - DAY), what: "on-chain" });

  // Member 6 (dev account 1) minted an Explorer and swapped 5 QUEST; member 7 (dev account 2) minted one.
  const [first, second] = WALLET_MEMBERS;
  const send = (account: number, call: Omit<Parameters<typeof callFromDevAccount>[0], "rpcUrl" | "key">) =>
    callFromDevAccount({ rpcUrl, key: DEV_PRIVATE_KEYS[account]!, ...call });
  for (const { account } of [first!, second!]) {
    await send(account, { address: demo.DemoCollection, abi: demoCollectionAbi, functionName: "mint", args: [] });
  }
  const amount = parseEther("5");
  await send(first!.account, { address: contracts.QuestToken, abi: questTokenAbi, functionName: "approve", args: [demo.DemoSwap, amount] });
  // The swap's other token is the chain's stand-in USDC (DemoSwap's tokenB).
  const usdc = await local.client.readContract({ address: demo.DemoSwap, abi: demoSwapAbi, functionName: "tokenB" });
  const swapHash = await send(first!.account, {
    address: demo.DemoSwap,
    abi: demoSwapAbi,
    functionName: "swapExactTokensForTokens",
    args: [amount, 0n, [contracts.QuestToken, usdc], getAddress(DEV_ADDRESSES[first!.account]!), 2n ** 48n],
  });

  const attempts: { member: number; type: TaskType; input: AttemptInput }[] = [
    { member: first!.member, type: "nft_hold", input: { kind: "check" } },
    { member: first!.member, type: "event_emitted", input: { kind: "check" } },
    { member: first!.member, type: "contract_call", input: { kind: "transaction", hash: swapHash.toLowerCase() } },
    { member: first!.member, type: "wallet_activity", input: { kind: "check" } },
    { member: first!.member, type: "hold_token", input: { kind: "check" } },
    { member: second!.member, type: "nft_hold", input: { kind: "check" } },
  ];
  for (const { member, type, input } of attempts) {
    const result = await attemptTask({ db, taskId: ids[type]!, userId: memberIds[member - 1]!, input, chains, now });
    if (!result.ok) throw new Error(`demo on-chain quest ${type}: ${failureMessage(result)}`);
  }
  return { campaignId: campaign.value.id };
}
