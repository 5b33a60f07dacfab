import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex } from "viem";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { tokenSaleAbi } from "#contracts/generated/token-sale";
import { describeContractError, type DecodedError, type ErrorContext } from "./contract-errors";

// Uses viem: imported by the server and by the wallet's lazily loaded code only, never by a page.

const ERRORS_ABI = [...questTokenAbi, ...tokenSaleAbi, ...airdropDistributorAbi].filter((item) => item.type === "error");

/** Revert data (selector and arguments) → the custom error, or null when it is none of ours. */
function decodeRevertData(data: Hex): DecodedError | null {
  try {
    const decoded = decodeErrorResult({ abi: ERRORS_ABI, data });
    return { name: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return null;
  }
}

/** Finds the revert data an error carries (viem's errors, a wallet's RPC error, or its message). */
function revertDataOf(error: unknown): Hex | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const data = (current as { data?: unknown }).data;
    if (typeof data === "string" && /^0x[0-9a-fA-F]{8,}$/.test(data)) return data as Hex;
    if (data && typeof data === "object" && typeof (data as { data?: unknown }).data === "string") {
      const inner = (data as { data: string }).data;
      if (/^0x[0-9a-fA-F]{8,}$/.test(inner)) return inner as Hex;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * What a revert says: the contract's error decoded; `"unexplained"`, a revert without a reason
 * this app can read; `"internal"`, an internal error in its place (a wallet that drops the revert
 * data, "RPC Request failed", looks the same as a node that did not answer); null when `error` is
 * no revert.
 */
export function readRevert(error: unknown): DecodedError | "unexplained" | "internal" | null {
  let internal = false;
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      if (reverted.data?.errorName) return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
      const raw = reverted.raw ? decodeRevertData(reverted.raw) : null;
      if (raw) return raw;
      // viem also files a node's internal error (-32603: it did not answer, or a wallet's own
      // "RPC Request failed") under reverts: only a reason that reads as a revert is one.
      if (reverted.reason && /revert/i.test(reverted.reason)) {
        const reason = reverted.reason.replace(/^.*execution reverted:?\s*/i, "").trim();
        return { name: "Error", args: [reason] };
      }
      internal = true;
    }
  }
  const data = revertDataOf(error);
  const decoded = data ? decodeRevertData(data) : null;
  if (decoded) return decoded;
  const text = error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ""}` : String(error);
  if (/execution reverted/i.test(text)) return "unexplained";
  return internal ? "internal" : null;
}

/** The sentence for a revert, when `error` is one (else null). */
export function describeRevert(error: unknown, context: ErrorContext): string | null {
  const revert = readRevert(error);
  if (revert === null || revert === "internal") return null;
  return revert === "unexplained" ? "The contract refused the transaction." : describeContractError(revert, context);
}
