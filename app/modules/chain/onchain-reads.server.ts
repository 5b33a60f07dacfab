import { BaseError, BlockNotFoundError, ContractFunctionRevertedError, erc20Abi, getAddress, parseAbi, type Address, type Hex, type PublicClient } from "viem";
import { firstBlockWhere } from "./block-search.server";
import { fromNode, isHistoricalStateUnavailable } from "./node-errors.server";

// Reads of the chain for on-chain tasks (issue #37): holdings, a wallet's history, blocks by time.
// Each takes the chain's viem client (a registry's `pageClient` while a member waits, `client` in
// jobs) and reads nothing else. A node that cannot answer throws ChainUnreachable; the node's
// answers, "none" included, are results. The transaction checks are in onchain-reads-calls.server.ts.

const erc721Abi = parseAbi(["function balanceOf(address owner) view returns (uint256)", "function ownerOf(uint256 tokenId) view returns (address)"]);
const erc1155Abi = parseAbi(["function balanceOf(address account, uint256 id) view returns (uint256)"]);

/** Whether a call's error is the contract reverting (a burnt or never-minted id's `ownerOf`), not the node failing. */
const reverted = (error: unknown) => error instanceof BaseError && Boolean(error.walk((e) => e instanceof ContractFunctionRevertedError));

/**
 * How many of a collection's NFTs `owner` holds: ERC-721 without ids, its `balanceOf`; with ids, how
 * many of them `ownerOf` names `owner` (an id burnt or never minted counts 0); ERC-1155, the sum of
 * `balanceOf(owner, id)` over the ids (which it needs).
 */
export async function readNftCount({
  client,
  standard,
  contract,
  owner,
  tokenIds,
  blockNumber,
}: {
  client: PublicClient;
  standard: "erc721" | "erc1155";
  contract: Address;
  owner: Address;
  tokenIds: readonly bigint[];
  blockNumber?: bigint;
}): Promise<bigint> {
  const address = getAddress(contract);
  const holder = getAddress(owner);
  if (standard === "erc1155") {
    if (tokenIds.length === 0) throw new Error("An ERC-1155 holding is counted over named token ids");
    const balances = await fromNode(() =>
      Promise.all(tokenIds.map((id) => client.readContract({ address, abi: erc1155Abi, functionName: "balanceOf", args: [holder, id], blockNumber }))),
    );
    return balances.reduce((sum, balance) => sum + balance, 0n);
  }
  if (tokenIds.length === 0) {
    return fromNode(() => client.readContract({ address, abi: erc721Abi, functionName: "balanceOf", args: [holder], blockNumber }));
  }
  const owners = await fromNode(() =>
    Promise.all(
      tokenIds.map((id) =>
        client.readContract({ address, abi: erc721Abi, functionName: "ownerOf", args: [id], blockNumber }).catch((error: unknown) => {
          if (reverted(error)) return null;
          throw error;
        }),
      ),
    ),
  );
  return BigInt(owners.filter((owner) => owner !== null && getAddress(owner) === holder).length);
}

/** A native (`token` null) or ERC-20 balance, at the head or at `blockNumber`. */
export async function readTokenBalance({
  client,
  token,
  owner,
  blockNumber,
}: {
  client: PublicClient;
  token: Address | null;
  owner: Address;
  blockNumber?: bigint;
}): Promise<bigint> {
  const address = getAddress(owner);
  return fromNode(() =>
    token
      ? client.readContract({ address: getAddress(token), abi: erc20Abi, functionName: "balanceOf", args: [address], blockNumber })
      : client.getBalance({ address, blockNumber }),
  );
}

export type WalletHistory = {
  /** Transactions the address sent: its nonce at `head`. */
  txCount: number;
  head: { number: bigint; hash: Hex };
  /** The first block where its nonce or balance was above 0; null: never active; the node keeps no older state. */
  firstActivity: { blockNumber: bigint; timestamp: Date } | null | "historical_unavailable";
};

/**
 * A wallet's history: its nonce at the head and, when asked, its first activity, found by a binary
 * search over historical state (the nonce and the balance at ~log2(head) blocks). A node that keeps
 * no old state (a full or pruned node; an archive node is needed) gives "historical_unavailable".
 */
export async function readWalletHistory({
  client,
  address,
  needFirstActivity,
}: {
  client: PublicClient;
  address: Address;
  needFirstActivity: boolean;
}): Promise<WalletHistory> {
  const wallet = getAddress(address);
  const block = await fromNode(() => client.getBlock({ blockTag: "latest" }));
  const head = { number: block.number, hash: block.hash };
  const txCount = await fromNode(() => client.getTransactionCount({ address: wallet, blockNumber: head.number }));
  if (!needFirstActivity) return { txCount, head, firstActivity: null };
  const activeAt = async (blockNumber: bigint) => {
    const [nonce, balance] = await Promise.all([
      client.getTransactionCount({ address: wallet, blockNumber }),
      client.getBalance({ address: wallet, blockNumber }),
    ]);
    return nonce > 0 || balance > 0n;
  };
  if (txCount === 0 && !(await fromNode(() => activeAt(head.number)))) return { txCount, head, firstActivity: null };
  try {
    // The smallest block at which the wallet is active (it is at the head).
    const blockNumber = await firstBlockWhere({ low: 0n, high: head.number, holds: (at) => fromNode(() => activeAt(at)) });
    const first = await fromNode(() => client.getBlock({ blockNumber }));
    return { txCount, head, firstActivity: { blockNumber, timestamp: new Date(Number(first.timestamp) * 1000) } };
  } catch (error) {
    if (isHistoricalStateUnavailable(error)) return { txCount, head, firstActivity: "historical_unavailable" };
    throw error;
  }
}

/** The first block whose timestamp is at or after `at` (a binary search); the head's number + 1 when none is yet. */
export async function blockAtTime({ client, at }: { client: PublicClient; at: Date }): Promise<bigint> {
  const target = BigInt(Math.ceil(at.getTime() / 1000));
  const head = await fromNode(() => client.getBlock({ blockTag: "latest" }));
  if (head.timestamp < target) return head.number + 1n;
  return firstBlockWhere({
    low: 0n,
    high: head.number,
    holds: async (blockNumber) => (await fromNode(() => client.getBlock({ blockNumber }))).timestamp >= target,
  });
}

/** A block's number, hash and time: the head's (no `blockNumber`) or a given block's; null for a block not mined yet. */
export async function readBlock({
  client,
  blockNumber,
}: {
  client: PublicClient;
  blockNumber?: bigint;
}): Promise<{ number: bigint; hash: Hex; timestamp: Date } | null> {
  const block = await fromNode(() => (blockNumber === undefined ? client.getBlock({ blockTag: "latest" }) : client.getBlock({ blockNumber }))).catch(
    (error: unknown) => {
      if (error instanceof BlockNotFoundError) return null;
      throw error;
    },
  );
  return block && { number: block.number, hash: block.hash, timestamp: new Date(Number(block.timestamp) * 1000) };
}

/** Whether `address` holds code (a contract) at the head. */
export async function hasCode({ client, address }: { client: PublicClient; address: Address }): Promise<boolean> {
  const code = await fromNode(() => client.getCode({ address: getAddress(address) }));
  return code !== undefined && code !== "0x";
}
