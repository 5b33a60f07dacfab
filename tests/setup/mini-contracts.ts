// Tiny contracts for the on-chain reads' tests and benchmark, compiled with solc-js when first
// asked (no artifacts committed): an ERC-20 with open minting, an ERC-721 whose `ownerOf` reverts
// for ids not minted or burnt, and an ERC-1155's balances. Enough of each standard for what the
// reads call; not the demo contracts the local chain deploys.

import solc from "solc";
import { createWalletClient, http, type Abi, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract MiniToken {
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  uint8 public constant decimals = 18;
  function mint(address to, uint256 amount) external { balanceOf[to] += amount; emit Transfer(address(0), to, amount); }
  function transfer(address to, uint256 amount) external returns (bool) {
    require(balanceOf[msg.sender] >= amount, "balance");
    balanceOf[msg.sender] -= amount; balanceOf[to] += amount; emit Transfer(msg.sender, to, amount); return true;
  }
  function approve(address spender, uint256 amount) external returns (bool) { allowance[msg.sender][spender] = amount; emit Approval(msg.sender, spender, amount); return true; }
  function pay() external payable {}
}
contract MiniNft {
  event Transfer(address indexed from, address indexed to, uint256 indexed id);
  mapping(uint256 => address) private owners;
  mapping(address => uint256) public balanceOf;
  function ownerOf(uint256 id) external view returns (address) { address owner = owners[id]; require(owner != address(0), "not minted"); return owner; }
  function mint(address to, uint256 id) external { require(owners[id] == address(0), "minted"); owners[id] = to; balanceOf[to] += 1; emit Transfer(address(0), to, id); }
  function burn(uint256 id) external { address owner = owners[id]; require(owner == msg.sender, "owner"); delete owners[id]; balanceOf[owner] -= 1; emit Transfer(owner, address(0), id); }
}
contract MiniMulti {
  mapping(uint256 => mapping(address => uint256)) public balances;
  function balanceOf(address account, uint256 id) external view returns (uint256) { return balances[id][account]; }
  function mint(address to, uint256 id, uint256 amount) external { balances[id][to] += amount; }
}
`;

type Compiled = { abi: Abi; bytecode: Hex };
let compiled: Record<"MiniToken" | "MiniNft" | "MiniMulti", Compiled> | null = null;

function compile() {
  if (compiled) return compiled;
  const input = {
    language: "Solidity",
    sources: { "Mini.sol": { content: SOURCE } },
    settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join("\n"));
  const of = (name: string): Compiled => ({
    abi: output.contracts["Mini.sol"][name].abi,
    bytecode: `0x${output.contracts["Mini.sol"][name].evm.bytecode.object}`,
  });
  compiled = { MiniToken: of("MiniToken"), MiniNft: of("MiniNft"), MiniMulti: of("MiniMulti") };
  return compiled;
}

/** Dev account `n`'s wallet on the anvil at `url`. */
export const devWallet = (url: string, n: number) =>
  createWalletClient({ chain: anvil, transport: http(url, { retryCount: 0 }), account: privateKeyToAccount(DEV_PRIVATE_KEYS[n]!) });

/** Deploys the tiny contracts from dev account 0; returns their addresses and ABIs. */
export async function deployMiniContracts({ url, client }: { url: string; client: PublicClient }) {
  const contracts = compile();
  const deployer = devWallet(url, 0);
  const deploy = async (name: keyof typeof contracts): Promise<Address> => {
    const hash = await deployer.deployContract({ abi: contracts[name].abi, bytecode: contracts[name].bytecode });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    return receipt.contractAddress!;
  };
  const token = await deploy("MiniToken");
  const otherToken = await deploy("MiniToken");
  const nft = await deploy("MiniNft");
  const multi = await deploy("MiniMulti");
  return { token, otherToken, nft, multi, abi: { token: contracts.MiniToken.abi, nft: contracts.MiniNft.abi, multi: contracts.MiniMulti.abi } };
}

export type MiniContracts = Awaited<ReturnType<typeof deployMiniContracts>>;
