import { createHmac } from "node:crypto";
import { getAddress, isAddress } from "viem";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";

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
export const LOCAL_DEV_FUNDERS = DEV_ADDRESSES;

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
