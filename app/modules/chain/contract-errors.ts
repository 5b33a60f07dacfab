import { formatAmount } from "~/lib/token-amounts";

/** What a sentence about a contract error may mention. */
export type ErrorContext = { token: string; coin: string };

/** A custom error decoded from revert data: its name and its arguments (viem's `decodeErrorResult`). */
export type DecodedError = { name: string; args: readonly unknown[] };

const big = (value: unknown) => (typeof value === "bigint" ? value : typeof value === "number" ? BigInt(value) : 0n);
const when = (seconds: unknown) =>
  new Date(Number(big(seconds)) * 1000).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/**
 * The custom errors of QuestToken, TokenSale and AirdropDistributor (and the OpenZeppelin ones they can raise), in
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
    case "AlreadyClaimed":
      return "This share was claimed already: the tokens went to its address.";
    case "ClaimWindowClosed":
      return `Claims closed on ${when(args[1])}: this share can no longer be claimed.`;
    case "InvalidProof":
      return "The airdrop contract did not accept this share's proof: it does not match the published allocation.";
    case "RoundExhausted":
      return "The airdrop round has paid out everything it holds.";
    case "UnknownRound":
      return "The airdrop contract has no such round on this network.";
    case "Error":
      return typeof args[0] === "string" && args[0] ? `The contract refused: ${args[0]}.` : "The contract refused the transaction.";
    case "Panic":
      return "The contract stopped on an internal error.";
    default:
      return `The contract refused the transaction (${name}).`;
  }
}
