import { createHmac } from "node:crypto";
import { getAddress, isAddress } from "viem";

/**
 * The sybil defence's configuration: the key sign-in context is hashed under (never stored or
 * logged in the clear) and the addresses that fund or receive from everyone — exchange hot
 * wallets, bridges, faucets — which form no cluster.
 */
export type TrustConfig = {
  /** HMAC key for the network and user-agent hashes (`TRUST_HASH_KEY`, else derived from the auth secret). */
  hashKey: Buffer;
  /** Lower-case addresses ignored as funders and sweep targets: `TRUST_SHARED_FUNDERS` plus the local chains' dev accounts. */
  sharedFunders: ReadonlySet<string>;
};

export class TrustConfigError extends Error {
  override name = "ConfigError";
}

/**
 * The local chains' dev accounts (anvil's well-known mnemonic): they fund every demo wallet, like
 * a faucet, so they say nothing about who is behind a wallet.
 */
export const LOCAL_DEV_FUNDERS = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
  "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
  "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
  "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
] as const;

export function trustConfigFromEnv(source: Record<string, string | undefined>, { authSecret }: { authSecret: string }): TrustConfig {
  const given = source.TRUST_HASH_KEY?.trim();
  if (given && given.length < 32) throw new TrustConfigError("Invalid configuration: TRUST_HASH_KEY must be at least 32 characters (openssl rand -hex 32)");
  const hashKey = given ? Buffer.from(given, "utf8") : createHmac("sha256", authSecret).update("questline trust hashes").digest();
  const listed = (source.TRUST_SHARED_FUNDERS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = listed.find((entry) => !isAddress(entry, { strict: false }));
  if (wrong) throw new TrustConfigError(`Invalid configuration: TRUST_SHARED_FUNDERS holds "${wrong.slice(0, 60)}", which is not a 0x address`);
  const sharedFunders = new Set([...LOCAL_DEV_FUNDERS, ...listed].map((entry) => getAddress(entry).toLowerCase()));
  return { hashKey, sharedFunders };
}
