import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getAddress, type Address, type Hex } from "viem";
import { z } from "zod";

export const CONTRACT_KEYS = ["QuestToken", "TokenSale", "DepositVault", "AirdropDistributor"] as const;
export type ContractKey = (typeof CONTRACT_KEYS)[number];
export type ContractAddresses = Record<ContractKey, Address>;

/** The environment variable prefix of each contract: `QUEST_TOKEN_ADDRESS_<chainId>`, … */
export const ENV_PREFIXES: Record<ContractKey, string> = {
  QuestToken: "QUEST_TOKEN",
  TokenSale: "TOKEN_SALE",
  DepositVault: "DEPOSIT_VAULT",
  AirdropDistributor: "AIRDROP_DISTRIBUTOR",
};

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address of 40 hex digits")
  .transform((value) => getAddress(value));

/** One chain's four addresses, as a deployment file or the database records them. */
export const contractAddressesSchema = z.object({ QuestToken: address, TokenSale: address, DepositVault: address, AirdropDistributor: address });

const codeHash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x hash of 64 hex digits")
  .transform((value) => value.toLowerCase() as Hex);

/** A token the chain's vault takes besides QUEST (a stablecoin, a project's token): its symbol, address and decimals. */
export type VaultToken = { symbol: string; address: Address; decimals: number };

/** One token of a deployment file's `tokens` (the symbol is the ledger's asset symbol: `USDC` → `USDC:<chainId>`). */
export const vaultTokenSchema = z.object({
  symbol: z.string().regex(/^[A-Z][A-Z0-9]{1,11}$/, "must be a token symbol of 2 to 12 capital letters and digits, e.g. USDC"),
  address,
  decimals: z.number().int().min(0).max(18),
});

/** A deployment's extra tokens: no symbol and no address twice, and none named QUEST (the vault's own token is always listed). */
export const vaultTokensSchema = z
  .array(vaultTokenSchema)
  .refine((tokens) => new Set(tokens.map((token) => token.symbol)).size === tokens.length, "must not name a symbol twice")
  .refine((tokens) => new Set(tokens.map((token) => token.address)).size === tokens.length, "must not name an address twice")
  .refine((tokens) => tokens.every((token) => token.symbol !== "QUEST"), "must not name QUEST (the vault's own token is always taken)");

/**
 * A deployment file. `codeHashes` (keccak256 of each contract's runtime code as the chain held it
 * right after the deployment) is absent from files written before it was recorded: such a file
 * still gives addresses, but a chain other than the local one moves no money on them (decision 054).
 */
const deploymentFileSchema = z.object({
  chainId: z.number().int().positive(),
  contracts: contractAddressesSchema,
  codeHashes: z.object({ QuestToken: codeHash, TokenSale: codeHash, DepositVault: codeHash, AirdropDistributor: codeHash }).optional(),
  /** Tokens the vault is allow-listed for besides QUEST (`tokens: [{ symbol, address, decimals }]`); none when absent. */
  tokens: vaultTokensSchema.optional(),
});

/** The runtime code hash recorded for each contract, where the deployment file recorded one for the address in use. */
export type ContractCodeHashes = Partial<Record<ContractKey, Hex>>;

/** One chain's contracts as configured: their addresses, the code hashes known for them and the vault's tokens besides QUEST. */
export type ChainDeployment = { contracts: ContractAddresses; codeHashes: ContractCodeHashes; tokens: VaultToken[] };

export class ContractConfigError extends Error {
  override name = "ConfigError";
}

/** Per chain, the addresses some environment variables give (possibly not all four). */
export type ContractAddressOverrides = Map<number, Partial<ContractAddresses>>;

const ENV_NAME = new RegExp(`^(${Object.values(ENV_PREFIXES).join("|")})_ADDRESS_(\\d+)$`);

/** Reads `QUEST_TOKEN_ADDRESS_<chainId>`-style variables; a malformed address stops the start. */
export function contractAddressesFromEnv(source: Record<string, string | undefined>): ContractAddressOverrides {
  const overrides: ContractAddressOverrides = new Map();
  for (const [name, value] of Object.entries(source)) {
    const match = ENV_NAME.exec(name);
    if (!match || !value) continue;
    const parsed = address.safeParse(value);
    if (!parsed.success) throw new ContractConfigError(`Invalid configuration: ${name} ${parsed.error.issues[0]!.message}`);
    const key = CONTRACT_KEYS.find((candidate) => ENV_PREFIXES[candidate] === match[1])!;
    const chainId = Number(match[2]);
    overrides.set(chainId, { ...overrides.get(chainId), [key]: parsed.data });
  }
  return overrides;
}

/** The contracts' addresses per chain (`readDeployments` without the code hashes). */
export function readContractAddresses({ dir, overrides }: { dir: string; overrides: ContractAddressOverrides }): Map<number, ContractAddresses> {
  return new Map([...readDeployments({ dir, overrides })].map(([chainId, deployment]) => [chainId, deployment.contracts]));
}

/**
 * The contracts per chain: `deployments/<chainId>.json` files (written by
 * `scripts/deploy-contracts.ts`), with environment variables taking precedence address by
 * address. A chain must end up with all four, else the start stops naming what is missing. A
 * file's code hash stays with its address: an address the environment changes has none.
 */
export function readDeployments({ dir, overrides }: { dir: string; overrides: ContractAddressOverrides }): Map<number, ChainDeployment> {
  const partial = new Map<number, Partial<ContractAddresses>>();
  const fromFiles = new Map<number, ChainDeployment>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    // No deployments folder: only the environment (and the local chain) give addresses.
  }
  for (const name of files) {
    const file = path.join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      throw new ContractConfigError(`Invalid deployment file ${file}: not JSON`);
    }
    const parsed = deploymentFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ContractConfigError(`Invalid deployment file ${file}: ${issue.path.join(".")} ${issue.message}`);
    }
    if (`${parsed.data.chainId}.json` !== name) throw new ContractConfigError(`Invalid deployment file ${file}: its chainId is ${parsed.data.chainId}`);
    partial.set(parsed.data.chainId, parsed.data.contracts);
    fromFiles.set(parsed.data.chainId, { contracts: parsed.data.contracts, codeHashes: parsed.data.codeHashes ?? {}, tokens: parsed.data.tokens ?? [] });
  }
  for (const [chainId, addresses] of overrides) partial.set(chainId, { ...partial.get(chainId), ...addresses });

  const complete = new Map<number, ChainDeployment>();
  for (const [chainId, addresses] of partial) {
    const missing = CONTRACT_KEYS.filter((key) => !addresses[key]);
    if (missing.length > 0) {
      throw new ContractConfigError(
        `Invalid configuration: ${missing.map((key) => `${ENV_PREFIXES[key]}_ADDRESS_${chainId}`).join(", ")} missing (set all four contracts of chain ${chainId}, or deploy to it)`,
      );
    }
    const file = fromFiles.get(chainId);
    const codeHashes = Object.fromEntries(
      CONTRACT_KEYS.filter((key) => file?.codeHashes[key] && file.contracts[key] === addresses[key]).map((key) => [key, file!.codeHashes[key]]),
    );
    complete.set(chainId, { contracts: addresses as ContractAddresses, codeHashes, tokens: file?.tokens ?? [] });
  }
  return complete;
}
