import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { EVM_VERSION, OPTIMIZER_RUNS, ownSources } from "./compile.ts";

const require = createRequire(import.meta.url);

/**
 * A fingerprint of everything the generated artifacts depend on: our sources, the compiler's and
 * OpenZeppelin's versions and the settings. The generated files carry it; a test compares.
 */
export function contractsSourceHash(): string {
  const hash = createHash("sha256");
  const versionOf = (pkg: string) => (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version;
  hash.update(JSON.stringify({ solc: versionOf("solc"), openzeppelin: versionOf("@openzeppelin/contracts"), EVM_VERSION, OPTIMIZER_RUNS }));
  for (const [name, { content }] of Object.entries(ownSources())) hash.update(`${name}\0${content}\0`);
  return hash.digest("hex").slice(0, 16);
}
