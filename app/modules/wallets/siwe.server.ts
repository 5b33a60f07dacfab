import { APIError } from "better-auth/api";
import { getAddress, isAddressEqual, recoverMessageAddress, type Hex, type PublicClient } from "viem";
import { parseSiweMessage, type SiweMessage } from "viem/siwe";
import { isErc6492Signature } from "viem/utils";
import { z } from "zod";

/** How long a signed message may be in the future (clock skew between the wallet and us). */
const CLOCK_SKEW_MS = 60_000;
/** Sign-in messages older than this are refused even without an expiration time. */
const MAX_MESSAGE_AGE_MS = 15 * 60_000;

const hexSignature = z.string().regex(/^0x[0-9a-fA-F]+$/, "The signature must be hex");

export type SiweCheckOptions = {
  /** The site's URL: the message's domain must be its host and its URI must be on it. */
  appUrl: string;
  /** Chain ids members may sign in on. */
  chainIds: readonly number[];
  /** The registry's client for a chain, to check contract-wallet signatures (ERC-1271 / ERC-6492). */
  clientFor: (chainId: number) => PublicClient | undefined;
  now?: Date;
};

function refuse(message: string, code: string): never {
  throw new APIError("UNAUTHORIZED", { message, code });
}

/** Parses an EIP-4361 message and checks everything in it but the nonce, which the caller consumes. */
export function checkSiweFields(message: string, { appUrl, chainIds, now = new Date() }: SiweCheckOptions) {
  let parsed: Partial<SiweMessage>;
  try {
    parsed = parseSiweMessage(message);
  } catch {
    refuse("Unauthorized: the message is not a sign-in message", "SIWE_MALFORMED");
  }
  const site = new URL(appUrl);
  if (!parsed.address || !parsed.nonce || !parsed.chainId || !parsed.uri || !parsed.domain || !parsed.version) {
    refuse("Unauthorized: the message is not a sign-in message", "SIWE_MALFORMED");
  }
  if (parsed.version !== "1") refuse("Unauthorized: unsupported message version", "SIWE_MALFORMED");
  if (parsed.domain !== site.host) refuse("Unauthorized: the message was made for another site (domain)", "SIWE_WRONG_DOMAIN");
  let uri: URL;
  try {
    uri = new URL(parsed.uri);
  } catch {
    refuse("Unauthorized: the message was made for another site (URI)", "SIWE_WRONG_URI");
  }
  if (uri.origin !== site.origin) refuse("Unauthorized: the message was made for another site (URI)", "SIWE_WRONG_URI");
  if (!chainIds.includes(parsed.chainId)) refuse(`Unauthorized: chain ${parsed.chainId} is not supported`, "SIWE_WRONG_CHAIN");
  const time = now.getTime();
  if (!parsed.issuedAt) refuse("Unauthorized: the message has no issue time", "SIWE_MALFORMED");
  if (parsed.issuedAt.getTime() > time + CLOCK_SKEW_MS) refuse("Unauthorized: the message is not valid yet", "SIWE_NOT_YET_VALID");
  if (parsed.notBefore && parsed.notBefore.getTime() > time + CLOCK_SKEW_MS) {
    refuse("Unauthorized: the message is not valid yet", "SIWE_NOT_YET_VALID");
  }
  if (parsed.expirationTime && parsed.expirationTime.getTime() <= time) refuse("Unauthorized: the message has expired", "SIWE_EXPIRED");
  if (time - parsed.issuedAt.getTime() > MAX_MESSAGE_AGE_MS) refuse("Unauthorized: the message has expired", "SIWE_EXPIRED");
  return { address: getAddress(parsed.address), chainId: parsed.chainId, nonce: parsed.nonce };
}

/**
 * Checks that `address` signed `message`. An ordinary account's signature is checked here, with
 * no network; a contract wallet's (ERC-1271, or ERC-6492 before deployment) through our node.
 */
export async function checkSiweSignature(
  { message, signature, address, chainId }: { message: string; signature: string; address: Hex; chainId: number },
  { clientFor }: Pick<SiweCheckOptions, "clientFor">,
) {
  const parsedSignature = hexSignature.safeParse(signature);
  if (!parsedSignature.success) refuse("Unauthorized: the signature is not valid", "SIWE_BAD_SIGNATURE");
  const sig = parsedSignature.data as Hex;
  if (!isErc6492Signature(sig)) {
    const signer = await recoverMessageAddress({ message, signature: sig }).catch(() => null);
    if (signer && isAddressEqual(signer, address)) return;
  }
  const client = clientFor(chainId);
  if (client) {
    const valid = await client.verifyMessage({ address, message, signature: sig }).catch(() => false);
    if (valid) return;
  }
  refuse("Unauthorized: the signature does not match the wallet in the message", "SIWE_BAD_SIGNATURE");
}
