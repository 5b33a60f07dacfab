import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contractAddressesFromEnv, readContractAddresses, readDeployments } from "./contract-addresses.server";

const A = "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const;
const B = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" as const;
const file = (chainId: number, contracts: Record<string, string>) => JSON.stringify({ chainId, contracts });
const all = (address: `0x${string}`) => ({ QuestToken: address, TokenSale: address, DepositVault: address, AirdropDistributor: address });

function deploymentsDir(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "questline-deployments-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

describe("contractAddressesFromEnv", () => {
  it("reads the per-chain variables and checksums the addresses", () => {
    const overrides = contractAddressesFromEnv({
      QUEST_TOKEN_ADDRESS_56: A.toLowerCase(),
      DEPOSIT_VAULT_ADDRESS_56: B,
      PATH: "/bin",
      TOKEN_SALE_ADDRESS_1: "",
    });
    expect(overrides).toEqual(new Map([[56, { QuestToken: A, DepositVault: B }]]));
  });

  it("stops on a malformed address, naming the variable", () => {
    expect(() => contractAddressesFromEnv({ TOKEN_SALE_ADDRESS_56: "0x123" })).toThrow("Invalid configuration: TOKEN_SALE_ADDRESS_56 must be a 0x address");
  });
});

describe("readContractAddresses", () => {
  it("reads deployments/<chainId>.json and lets the environment override address by address", () => {
    const dir = deploymentsDir({ "31337.json": file(31337, all(A)), "11155111.json": file(11155111, all(B)), "notes.md": "ignored" });
    const addresses = readContractAddresses({ dir, overrides: new Map([[11155111, { TokenSale: A }]]) });
    expect(addresses.get(31337)).toEqual(all(A));
    expect(addresses.get(11155111)).toEqual({ ...all(B), TokenSale: A });
  });

  it("takes a chain from the environment alone when all four are set", () => {
    const addresses = readContractAddresses({ dir: "/nonexistent", overrides: new Map([[56, all(B)]]) });
    expect(addresses.get(56)).toEqual(all(B));
  });

  it("stops when a chain lacks some addresses", () => {
    expect(() => readContractAddresses({ dir: "/nonexistent", overrides: new Map([[56, { QuestToken: A }]]) })).toThrow(
      "TOKEN_SALE_ADDRESS_56, DEPOSIT_VAULT_ADDRESS_56, AIRDROP_DISTRIBUTOR_ADDRESS_56 missing",
    );
  });

  it("reads each contract's code hash, kept only where the address in use is the file's", () => {
    const hash = (digit: string) => `0x${digit.repeat(64)}`;
    const codeHashes = { QuestToken: hash("A"), TokenSale: hash("b"), DepositVault: hash("c"), AirdropDistributor: hash("d") };
    const dir = deploymentsDir({
      "84532.json": JSON.stringify({ chainId: 84532, contracts: all(A), codeHashes }),
      "8453.json": file(8453, all(A)),
    });
    const deployments = readDeployments({ dir, overrides: new Map([[84532, { TokenSale: B, DepositVault: A }]]) });
    expect(deployments.get(84532)).toEqual({
      contracts: { ...all(A), TokenSale: B },
      codeHashes: { QuestToken: hash("a"), DepositVault: hash("c"), AirdropDistributor: hash("d") },
      tokens: [],
    });
    expect(deployments.get(8453)).toEqual({ contracts: all(A), codeHashes: {}, tokens: [] });
    expect(() =>
      readDeployments({
        dir: deploymentsDir({ "1.json": JSON.stringify({ chainId: 1, contracts: all(A), codeHashes: { ...codeHashes, TokenSale: "0x12" } }) }),
        overrides: new Map(),
      }),
    ).toThrow("codeHashes.TokenSale must be a 0x hash of 64 hex digits");
  });

  it("reads the vault's tokens besides QUEST, and stops on a token it cannot use", () => {
    const usdc = { symbol: "USDC", address: B.toLowerCase(), decimals: 6 };
    const dir = deploymentsDir({ "8453.json": JSON.stringify({ chainId: 8453, contracts: all(A), tokens: [usdc] }) });
    expect(readDeployments({ dir, overrides: new Map() }).get(8453)!.tokens).toEqual([{ symbol: "USDC", address: B, decimals: 6 }]);
    const withTokens = (tokens: unknown[]) => () =>
      readDeployments({ dir: deploymentsDir({ "1.json": JSON.stringify({ chainId: 1, contracts: all(A), tokens }) }), overrides: new Map() });
    expect(withTokens([{ ...usdc, symbol: "usdc" }])).toThrow("tokens.0.symbol must be a token symbol");
    expect(withTokens([{ ...usdc, decimals: 6.5 }])).toThrow("tokens.0.decimals");
    expect(withTokens([usdc, { ...usdc, address: A }])).toThrow("tokens must not name a symbol twice");
    expect(withTokens([{ ...usdc, symbol: "QUEST" }])).toThrow("must not name QUEST");
  });

  it("stops on a broken or misnamed file", () => {
    expect(() => readContractAddresses({ dir: deploymentsDir({ "1.json": "{" }), overrides: new Map() })).toThrow("not JSON");
    expect(() => readContractAddresses({ dir: deploymentsDir({ "1.json": file(1, { ...all(A), DepositVault: "0x1" }) }), overrides: new Map() })).toThrow(
      "contracts.DepositVault must be a 0x address",
    );
    expect(() => readContractAddresses({ dir: deploymentsDir({ "1.json": file(2, all(A)) }), overrides: new Map() })).toThrow("its chainId is 2");
  });
});
