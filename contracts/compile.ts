// Compiles contracts/*.sol with solc-js (the `solc` npm package: no network, no native binary).
// Imports resolve from node_modules (OpenZeppelin). Used by scripts/compile-contracts.ts (the
// shipped, optimized build), the generated-files check and the coverage build (unoptimized, with
// source maps and ASTs).

import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import solc from "solc";

export const CONTRACTS_DIR = path.resolve(import.meta.dirname);
/** The contracts that get typed artifacts, in deployment order. */
export const CONTRACT_NAMES = [
  "QuestToken",
  "TokenSale",
  "DepositVault",
  "AirdropDistributor",
  "TestStablecoin",
  "DemoCollection",
  "DemoItems",
  "DemoSwap",
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];
/** The contracts every deployment holds (the rest of CONTRACT_NAMES, from TestStablecoin on, are deployed on local chains only). */
export const PLATFORM_CONTRACT_NAMES = ["QuestToken", "TokenSale", "DepositVault", "AirdropDistributor"] as const satisfies readonly ContractName[];
export type PlatformContractName = (typeof PLATFORM_CONTRACT_NAMES)[number];
/** Every chain we target runs Cancun; the compiler's newer default would not deploy everywhere. */
export const EVM_VERSION = "cancun";
export const OPTIMIZER_RUNS = 200;

export type CompiledContract = {
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  /** Source maps (solc's compressed form) of the creation and runtime code. */
  sourceMap: string;
  deployedSourceMap: string;
};

export type CompileOutput = {
  solcVersion: string;
  contracts: Record<ContractName, CompiledContract>;
  /** Source unit name → { id (the source map's file index), ast, content } for our own files and the libraries. */
  sources: Record<string, { id: number; ast: unknown; content: string }>;
};

type SolcError = { severity: "error" | "warning" | "info"; formattedMessage: string };

const require = createRequire(import.meta.url);

/** Source unit names are paths relative to the project root (`contracts/QuestToken.sol`) or npm imports. */
function findImport(importPath: string): { contents: string } | { error: string } {
  try {
    const file = importPath.startsWith("contracts/") ? path.join(CONTRACTS_DIR, "..", importPath) : require.resolve(importPath);
    return { contents: readFileSync(file, "utf8") };
  } catch {
    return { error: `File not found: ${importPath}` };
  }
}

export function ownSources(): Record<string, { content: string }> {
  const files = readdirSync(CONTRACTS_DIR)
    .filter((name) => name.endsWith(".sol"))
    .sort();
  return Object.fromEntries(files.map((name) => [`contracts/${name}`, { content: readFileSync(path.join(CONTRACTS_DIR, name), "utf8") }]));
}

/**
 * Compiles every contract. `optimize: false` is the coverage build: the optimizer would blur
 * the source maps that coverage reads.
 */
export function compileContracts({ optimize = true }: { optimize?: boolean } = {}): CompileOutput {
  const input = {
    language: "Solidity",
    sources: ownSources(),
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: optimize, runs: OPTIMIZER_RUNS },
      outputSelection: {
        "*": {
          "*": ["abi", "evm.bytecode.object", "evm.bytecode.sourceMap", "evm.deployedBytecode.object", "evm.deployedBytecode.sourceMap"],
          "": ["ast"],
        },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = ((output.errors ?? []) as SolcError[]).filter((error) => error.severity === "error");
  if (errors.length > 0) throw new Error(`Solidity compilation failed:\n${errors.map((error) => error.formattedMessage).join("\n")}`);
  const warnings = ((output.errors ?? []) as SolcError[]).filter((error) => error.severity === "warning");
  if (warnings.length > 0) throw new Error(`Solidity compilation warned (we keep it clean):\n${warnings.map((error) => error.formattedMessage).join("\n")}`);

  const contracts = {} as Record<ContractName, CompiledContract>;
  for (const name of CONTRACT_NAMES) {
    const compiled = output.contracts[`contracts/${name}.sol`]?.[name];
    if (!compiled) throw new Error(`Solidity compilation produced no ${name}`);
    contracts[name] = {
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      sourceMap: compiled.evm.bytecode.sourceMap,
      deployedSourceMap: compiled.evm.deployedBytecode.sourceMap,
    };
  }
  const sources: CompileOutput["sources"] = {};
  for (const [name, source] of Object.entries(output.sources as Record<string, { id: number; ast: unknown }>)) {
    const found = findImport(name);
    sources[name] = { id: source.id, ast: source.ast, content: "contents" in found ? found.contents : "" };
  }
  return { solcVersion: solc.version(), contracts, sources };
}
