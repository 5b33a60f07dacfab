import { and, eq } from "drizzle-orm";
import { formatUnits, getAddress, type Address, type Hex, type PublicClient } from "viem";
import { onchainTxUse } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { taskWindow } from "./task-window.server";
import { failure, invalid, ok, type Failure } from "~/lib/result";
import type { ChainEvidence } from "~/modules/chain/chain-evidence";
import type { RegisteredChain } from "~/modules/chain/chain-registry.server";
import { ChainUnreachable, isHistoricalStateUnavailable } from "~/modules/chain/node-errors.server";
import { checkContractCall, type CallMatch, type TxCheck } from "~/modules/chain/onchain-reads-calls.server";
import { findContractCall } from "~/modules/chain/onchain-reads-find.server";
import { readBlock, readNftCount, readTokenBalance, readWalletHistory } from "~/modules/chain/onchain-reads.server";
import { TRANSACTION_USED, type AttemptInput, type OnchainChains, type Task, type Verified } from "./completions.server";
import { taskConfigSchemas } from "./task.schema";

/** What a member is told when the node did not answer: nothing was recorded. */
export const CHAIN_UNREACHABLE = "The chain could not be reached. Try again in a minute.";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The checks of the on-chain tasks read when the member asks (issue #37): `hold_token` (at its
 * snapshot block when it names one), `nft_hold`, `wallet_activity` and `contract_call` (a pasted
 * hash, or "Find my transaction" over the chain's last `findTxBlocks` blocks, FIND_TX_BLOCKS). Each reads the task's
 * chain through `chains.get(chainId).pageClient` (app/modules/chain/onchain-reads.server.ts) and:
 *  - approves with `evidence` (ChainEvidence: chain, block, hash, the measured values) and, for a
 *    transaction, `claim` (the hash, refused by the attempt when the task counted it already);
 *  - refuses in words what the chain shows is not done: `failure("not_met", …)`, or
 *    `invalid("txHash", …)` for a pasted hash that does not fit (another contract, a failed receipt,
 *    a wallet not linked, outside the window, used already);
 *  - answers a node that cannot be reached (ChainUnreachable) with `failure("unavailable", …)`:
 *    nothing is recorded, never a wrong "not done";
 *  - counts a transaction, and a snapshot block, only from the chain's confirmation depth (its
 *    `confirmations`; 1, mined, on a chain that names none): below it, "not_met" with how many
 *    confirmations it has of how many.
 * The window is `taskWindow(db, task)` (the task's dates, else its campaign's or airdrop's).
 */
export async function verifyOnchain({
  db,
  task,
  userId,
  input,
  now,
  chains,
}: {
  db: Db;
  task: Task;
  userId: string;
  input: AttemptInput;
  now: Date;
  chains: OnchainChains | undefined;
}): Promise<Verified | Failure> {
  if (task.type !== "hold_token" && task.type !== "nft_hold" && task.type !== "wallet_activity" && task.type !== "contract_call") {
    return invalid("form", "This task cannot be checked.");
  }
  const { chainId } = taskConfigSchemas[task.type].parse(task.config) as { chainId: number };
  const chain = chains?.get(chainId);
  if (!chain) return failure("unavailable", "This task's chain cannot be reached from this server. Tell the project's team.");
  const rows = await db.selectDistinct({ address: walletAddress.address }).from(walletAddress).where(eq(walletAddress.userId, userId));
  if (rows.length === 0) return failure("not_met", "Link a wallet in Settings › Profile first.");
  const wallets = rows.map((row) => getAddress(row.address));
  const check = { db, task, input, now, chain, client: chain.pageClient, wallets, confirmations: chain.confirmations ?? 1 };
  try {
    switch (task.type) {
      case "hold_token":
        return await holdsToken(check);
      case "nft_hold":
        return await holdsNft(check);
      case "wallet_activity":
        return await hasHistory(check);
      case "contract_call":
        return await calledContract(check);
    }
  } catch (error) {
    if (error instanceof ChainUnreachable) return failure("unavailable", CHAIN_UNREACHABLE);
    throw error;
  }
}

type Check = {
  db: Db;
  task: Task;
  input: AttemptInput;
  now: Date;
  chain: RegisteredChain;
  client: PublicClient;
  wallets: Address[];
  confirmations: number;
};

const evidence = (chain: RegisteredChain, block: { number: bigint; hash: Hex }, wallet: Address, values: Record<string, string>): ChainEvidence => ({
  kind: "chain",
  chainId: chain.id,
  blockNumber: block.number.toString(),
  blockHash: block.hash,
  wallet,
  values,
});

/**
 * The block a holding is read at: the snapshot block once it is `confirmations` deep, else the
 * head; a Failure while the snapshot is not mined or not deep enough yet.
 */
async function holdingBlock({ client, chain, confirmations }: Check, snapshot: number | null) {
  const head = await readBlock({ client });
  if (!head) throw new ChainUnreachable(new Error("the node named no head"));
  if (snapshot === null) return head;
  const depth = Number(head.number) - snapshot + 1;
  if (depth < confirmations) {
    return failure(
      "not_met",
      depth <= 0
        ? `This task counts what your wallets hold at block ${snapshot.toLocaleString("en")}; ${chain.name} is at block ${head.number.toLocaleString("en")}. Come back once it is mined.`
        : `Block ${snapshot.toLocaleString("en")} has ${depth} of the ${confirmations} confirmations it needs. Try again in a minute.`,
    );
  }
  return readBlock({ client, blockNumber: BigInt(snapshot) }).then((block) => block ?? head);
}

/** A read at an old block on a node that keeps no old state: said plainly, nothing recorded. */
const historicalUnavailable = (chain: RegisteredChain, what: string) =>
  failure("unavailable", `${chain.name}'s node keeps no state that old, so ${what} cannot be checked: it needs an archive node. Tell the project's team.`);

async function holdsToken(check: Check): Promise<Verified | Failure> {
  const config = taskConfigSchemas.hold_token.parse(check.task.config);
  const block = await holdingBlock(check, config.snapshotBlock);
  if ("ok" in block) return block;
  const needed = BigInt(config.minBalance);
  const token = config.tokenAddress ? getAddress(config.tokenAddress) : null;
  let balances: bigint[];
  try {
    balances = await Promise.all(check.wallets.map((owner) => readTokenBalance({ client: check.client, token, owner, blockNumber: block.number })));
  } catch (error) {
    if (isHistoricalStateUnavailable(error)) return historicalUnavailable(check.chain, `a balance at block ${block.number.toLocaleString("en")}`);
    throw error;
  }
  const at = balances.findIndex((balance) => balance >= needed);
  if (at >= 0) {
    const wallet = check.wallets[at]!;
    const balance = balances[at]!.toString();
    return ok({ submission: { wallet, balance }, evidence: evidence(check.chain, block, wallet, { balance }) });
  }
  const amount = `${formatUnits(needed, config.decimals)} ${config.symbol || (token ? "of the token" : "of the chain's coin")}`;
  if (config.snapshotBlock === null) return failure("not_met", `None of your linked wallets holds ${amount}.`);
  return failure("not_met", `None of your linked wallets held ${amount} at block ${config.snapshotBlock.toLocaleString("en")}.`);
}

async function holdsNft(check: Check): Promise<Verified | Failure> {
  const config = taskConfigSchemas.nft_hold.parse(check.task.config);
  const block = await holdingBlock(check, null);
  if ("ok" in block) return block;
  const tokenIds = config.tokenIds.map(BigInt);
  const counts = await Promise.all(
    check.wallets.map((owner) =>
      readNftCount({ client: check.client, standard: config.standard, contract: getAddress(config.contract), owner, tokenIds, blockNumber: block.number }),
    ),
  );
  const at = counts.findIndex((count) => count >= BigInt(config.minCount));
  if (at >= 0) {
    const wallet = check.wallets[at]!;
    const count = counts[at]!.toString();
    return ok({ submission: { wallet, count }, evidence: evidence(check.chain, block, wallet, { count }) });
  }
  const what = config.name || (config.minCount === 1 ? "NFT of this collection" : "NFTs of this collection");
  const ids = config.tokenIds.length > 0 ? ` (token ${config.tokenIds.map((id) => `#${id}`).join(", ")})` : "";
  return failure("not_met", `None of your linked wallets holds ${config.minCount} ${what}${ids}.`);
}

async function hasHistory(check: Check): Promise<Verified | Failure> {
  const config = taskConfigSchemas.wallet_activity.parse(check.task.config);
  const needAge = config.minAgeDays !== null;
  const latest = needAge ? new Date(check.now.getTime() - config.minAgeDays! * DAY_MS) : null;
  let historyUnavailable = false;
  let mostSent = 0;
  for (const wallet of check.wallets) {
    const history = await readWalletHistory({ client: check.client, address: wallet, needFirstActivity: needAge });
    mostSent = Math.max(mostSent, history.txCount);
    if (config.minTxCount !== null && history.txCount < config.minTxCount) continue;
    if (history.firstActivity === "historical_unavailable") {
      historyUnavailable = true;
      continue;
    }
    if (latest && (!history.firstActivity || history.firstActivity.timestamp > latest)) continue;
    const values: Record<string, string> = { txCount: String(history.txCount) };
    if (history.firstActivity) {
      values.firstActivityBlock = history.firstActivity.blockNumber.toString();
      values.firstActivityAt = history.firstActivity.timestamp.toISOString();
    }
    return ok({ submission: { wallet, ...values }, evidence: evidence(check.chain, history.head, wallet, values) });
  }
  if (historyUnavailable) return historicalUnavailable(check.chain, "a wallet's first activity");
  if (config.minTxCount !== null && mostSent < config.minTxCount) {
    return failure("not_met", `Your linked wallets have sent at most ${mostSent} transactions on ${check.chain.name}; the task asks for ${config.minTxCount}.`);
  }
  return failure("not_met", `None of your linked wallets was active on ${check.chain.name} ${config.minAgeDays} days ago or earlier.`);
}

async function calledContract(check: Check): Promise<Verified | Failure> {
  const config = taskConfigSchemas.contract_call.parse(check.task.config);
  const { db, task, input, chain, client, confirmations } = check;
  if (input.kind !== "transaction" && input.kind !== "find") return invalid("txHash", "Paste your transaction's hash, or press Find my transaction.");
  const match: CallMatch = {
    from: check.wallets,
    to: getAddress(config.contract),
    selectors: config.functions.map((f) => f.selector as Hex),
    minValue: config.minValue === null ? null : BigInt(config.minValue),
    transfer: config.transfer && { token: getAddress(config.transfer.token), minAmount: BigInt(config.transfer.minAmount) },
    window: await taskWindow(db, task),
  };
  const used = await db.select({ txHash: onchainTxUse.txHash }).from(onchainTxUse).where(eq(onchainTxUse.taskId, task.id));
  if (input.kind === "transaction") {
    const hash = input.hash.toLowerCase() as Hex;
    const [again] = await db
      .select({ txHash: onchainTxUse.txHash })
      .from(onchainTxUse)
      .where(and(eq(onchainTxUse.taskId, task.id), eq(onchainTxUse.txHash, hash)));
    if (again) return invalid("txHash", TRANSACTION_USED);
    const checked = await checkContractCall({ client, chainId: chain.id, confirmations, hash, match });
    if (checked.kind === "refused") return invalid("txHash", `${checked.message}.`);
    if (checked.kind === "not_found") return invalid("txHash", `${chain.name} has no mined transaction with this hash (yet). Check the hash and the network.`);
    return callOutcome(chain, checked);
  }
  const exclude = new Set(used.map((row) => row.txHash));
  const found = await findContractCall({ client, chainId: chain.id, confirmations, match, blocks: chain.findTxBlocks, exclude });
  if (found.kind === "refused") return failure("not_met", `${found.message}.`);
  if (found.kind === "not_found") {
    return failure(
      "not_met",
      `No matching transaction from your linked wallets in ${chain.name}'s last ${chain.findTxBlocks.toLocaleString("en")} blocks. Paste its hash if it is older.`,
    );
  }
  return callOutcome(chain, found);
}

function callOutcome(chain: RegisteredChain, checked: Extract<TxCheck, { kind: "found" | "waiting" }>): Verified | Failure {
  if (checked.kind === "waiting") {
    return failure("not_met", `Your transaction has ${checked.confirmations} of the ${checked.needed} confirmations it needs. Try again in a minute.`);
  }
  const { evidence: found } = checked;
  return ok({
    submission: { txHash: found.txHash!, wallet: found.wallet },
    evidence: found,
    claim: { chainId: chain.id, txHash: found.txHash!.toLowerCase() },
  });
}
