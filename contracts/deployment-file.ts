import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Deployment } from "./deploy.ts";
import { contractsSourceHash } from "./generated/build-info.ts";

/** Where `scripts/deploy-contracts.ts` writes and the app reads `<chainId>.json`. */
export const DEFAULT_DEPLOYMENTS_DIR = "deployments";

/** Writes `<dir>/<chainId>.json`: the addresses, the deployer, the runtime code hashes and the sources' fingerprint. */
export function writeDeploymentFile(dir: string, deployment: Deployment): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${deployment.chainId}.json`);
  writeFileSync(file, `${JSON.stringify({ ...deployment, sourceHash: contractsSourceHash }, null, 2)}\n`);
  return file;
}
