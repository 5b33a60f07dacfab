import { formatAmount } from "./amounts";

/** What a sentence about a contract error may mention. */
export type ErrorContext = { token: string; coin: string };

/** A custom error decoded from revert data: its name and its arguments (viem's `decodeErrorResult`). */
export type DecodedError = { name: string; args: readonly unknown[] };

const big = (value: unknown) => (typeof value === "bigint" ? value : typeof value === "number" ? BigInt(value) : 0n);
const when = (seconds: unknown) =>
  new Date(Number(big(seconds)) * 1000).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/**
 * The custom errors of QuestToken and TokenSale (and the OpenZeppelin ones they can raise), in
 * words a member understands. Unknown errors still name themselves.
 */
export function describeContractError({ name, args }: DecodedError, { token, coin }: ErrorContext): string {
  switch (name) {
    case "PublicMintClosed":
      return "The public mint is closed right now.";
    case "ZeroAmount":
      return "Enter an amount above 0.";
    case "WrongPayment":
      return `The payment did not match the price: ${formatAmount(big(args[0]), { maxFraction: 8 })} ${coin} expected, ${formatAmount(big(args[1]), { maxFraction: 8 })} ${coin} sent.`;
    case "WalletCapExceeded": {
      const remaining = big(args[0]);
      return remaining === 0n
        ? `This wallet has reached its limit: it cannot take more ${token}.`
        : `That is over this wallet's limit: it may take ${formatAmount(remaining)} ${token} more.`;
    }
    case "HardCapExceeded": {
      const remaining = big(args[0]);
      return remaining === 0n ? "The sale is sold out." : `Only ${formatAmount(remaining)} ${token} are left in the sale.`;
    }
    case "SaleNotStarted":
      return `The sale has not started yet: it opens on ${when(args[0])}.`;
    case "SaleEnded":
      return `The sale has ended: it closed on ${when(args[0])}.`;
    case "ERC20ExceededCap":
      return `That would pass ${token}'s total supply cap.`;
    case "ERC20InsufficientBalance":
      return `This wallet does not hold enough ${token}.`;
    case "AccessControlUnauthorizedAccount":
    case "OwnableUnauthorizedAccount":
      return "This wallet is not allowed to do that.";
    case "ReentrancyGuardReentrantCall":
      return "The contract refused a nested call.";
    case "ProceedsTransferFailed":
      return `The ${coin} transfer failed.`;
    case "ZeroAddress":
      return "An address was missing (the zero address).";
    case "Error":
      return typeof args[0] === "string" && args[0] ? `The contract refused: ${args[0]}.` : "The contract refused the transaction.";
    case "Panic":
      return "The contract stopped on an internal error.";
    default:
      return `The contract refused the transaction (${name}).`;
  }
}

/** Why a transaction did not go through, as the page tells it. */
export type TxFailureKind = "rejected" | "revert" | "network" | "chain" | "funds" | "unknown";

/** An error the transaction helpers throw with a sentence for the member. */
export class TxError extends Error {
  override name = "TxError";
  constructor(
    readonly kind: TxFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The sentence to show for any error a transaction attempt threw. */
export function txErrorMessage(error: unknown): { kind: TxFailureKind; message: string } {
  if (error instanceof TxError) return { kind: error.kind, message: error.message };
  const code = typeof error === "object" && error && "code" in error ? (error as { code: unknown }).code : undefined;
  if (code === 4001) return { kind: "rejected", message: "You rejected the transaction in your wallet. Nothing was sent." };
  return { kind: "unknown", message: error instanceof Error && error.message ? error.message : "The transaction could not be sent." };
}
