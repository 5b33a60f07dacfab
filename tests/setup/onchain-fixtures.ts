import solc from "solc";
import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";

/**
 * Small contracts the on-chain task tests deploy on anvil (compiled here with solc-js, not part of
 * the platform's build): an event emitter standing in for a DEX (`Swap`, one per call or one per
 * member in a single transaction), an ERC-721 collection and an ERC-20 token, each with only what a
 * check reads (`balanceOf`, `ownerOf`) and what a test does (mint, transfer).
 */
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract TestSwap {
  event Swap(address indexed sender, uint256 amountIn, uint256 amountOut);

  function swap(uint256 amountIn) external {
    emit Swap(msg.sender, amountIn, amountIn * 2);
  }

  /** One Swap per member in one transaction (the benchmark's 10,000 members in a few transactions). */
  function swapFor(address[] calldata senders, uint256 amountIn) external {
    for (uint256 i = 0; i < senders.length; i++) emit Swap(senders[i], amountIn, amountIn * 2);
  }
}

contract TestCollection {
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  mapping(address => uint256) public balanceOf;
  mapping(uint256 => address) public ownerOf;

  function mint(uint256 tokenId) external {
    require(ownerOf[tokenId] == address(0), "minted");
    ownerOf[tokenId] = msg.sender;
    balanceOf[msg.sender] += 1;
    emit Transfer(address(0), msg.sender, tokenId);
  }

  function transferFrom(address from, address to, uint256 tokenId) external {
    require(ownerOf[tokenId] == from && from == msg.sender, "not yours");
    ownerOf[tokenId] = to;
    balanceOf[from] -= 1;
    balanceOf[to] += 1;
    emit Transfer(from, to, tokenId);
  }
}

contract TestCoin {
  event Transfer(address indexed from, address indexed to, uint256 value);
  mapping(address => uint256) public balanceOf;
  uint8 public constant decimals = 18;

  function mint(uint256 amount) external {
    balanceOf[msg.sender] += amount;
    emit Transfer(address(0), msg.sender, amount);
  }

  function transfer(address to, uint256 amount) external returns (bool) {
    balanceOf[msg.sender] -= amount;
    balanceOf[to] += amount;
    emit Transfer(msg.sender, to, amount);
    return true;
  }
}
`;

type Compiled = { abi: Abi; bytecode: Hex };
type Names = "TestSwap" | "TestCollection" | "TestCoin";
let compiled: Record<Names, Compiled> | undefined;

function compile(): Record<Names, Compiled> {
  if (compiled) return compiled;
  const input = {
    language: "Solidity",
    sources: { "onchain-fixtures.sol": { content: SOURCE } },
    settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const of = (name: Names): Compiled => {
    const contract = output.contracts["onchain-fixtures.sol"]![name]!;
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  compiled = { TestSwap: of("TestSwap"), TestCollection: of("TestCollection"), TestCoin: of("TestCoin") };
  return compiled;
}

/** The `Swap` event as a task names it. */
export const SWAP_EVENT = "Swap(address indexed sender, uint256 amountIn, uint256 amountOut)";

export type OnchainFixtures = {
  client: PublicClient;
  /** Dev account `n`'s wallet (anvil's funded accounts). */
  wallet: (n: number) => WalletClient & { account: { address: Address } };
  address: (n: number) => Address;
  swap: Address;
  collection: Address;
  coin: Address;
  abis: { swap: Abi; collection: Abi; coin: Abi };
  /** Sends a call from dev account `n` and waits for its receipt (a failed one throws). */
  send: (n: number, call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] }) => Promise<{ hash: Hex; blockNumber: bigint }>;
  /** Mines `count` empty blocks. */
  mine: (count: number) => Promise<void>;
  /** anvil's JSON-RPC, for what viem has no action for. */
  rpc: (method: string, params: unknown[]) => Promise<unknown>;
};

/** Deploys the three contracts on the anvil node at `url` (from dev account 0). */
export async function deployOnchainFixtures(url: string): Promise<OnchainFixtures> {
  const contracts = compile();
  const transport = http(url);
  const client = createPublicClient({ chain: anvil, transport, pollingInterval: 10 }) as PublicClient;
  const wallet = (n: number) => createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[n]!) });
  const deploy = async (name: Names) => {
    const hash = await wallet(0).deployContract({ abi: contracts[name].abi, bytecode: contracts[name].bytecode });
    const receipt = await client.waitForTransactionReceipt({ hash });
    return receipt.contractAddress!;
  };
  const swap = await deploy("TestSwap");
  const collection = await deploy("TestCollection");
  const coin = await deploy("TestCoin");
  const rpc = (method: string, params: unknown[]) => client.request({ method: method as never, params: params as never });
  return {
    client,
    wallet,
    address: (n) => wallet(n).account.address,
    swap,
    collection,
    coin,
    abis: { swap: contracts.TestSwap.abi, collection: contracts.TestCollection.abi, coin: contracts.TestCoin.abi },
    send: async (n, call) => {
      const signer = wallet(n);
      const hash = await signer.writeContract({ ...call, chain: anvil, account: signer.account } as never);
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`${call.functionName} failed`);
      return { hash, blockNumber: receipt.blockNumber };
    },
    mine: async (count) => {
      await rpc("anvil_mine", [`0x${count.toString(16)}`]);
    },
    rpc,
  };
}
