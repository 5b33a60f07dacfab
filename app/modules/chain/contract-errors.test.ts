import { describe, expect, it } from "vitest";
import { describeContractError } from "./contract-errors";
import { TxError, txErrorMessage } from "./tx-error";

const E18 = 10n ** 18n;
const ctx = { token: "QUEST", coin: "BNB" };
const say = (name: string, ...args: unknown[]) => describeContractError({ name, args }, ctx);

describe("contract errors in words", () => {
  it("tells each custom error of the token and the sale as a sentence", () => {
    expect(say("PublicMintClosed")).toBe("The public mint is closed right now.");
    expect(say("ZeroAmount")).toBe("Enter an amount above 0.");
    expect(say("WrongPayment", 10n ** 15n, 0n)).toBe("The payment did not match the price: 0.001 BNB expected, 0 BNB sent.");
    expect(say("WalletCapExceeded", 250n * E18)).toBe("That is over this wallet's limit: it may take 250 QUEST more.");
    expect(say("WalletCapExceeded", 0n)).toBe("This wallet has reached its limit: it cannot take more QUEST.");
    expect(say("HardCapExceeded", 0n)).toBe("The sale is sold out.");
    expect(say("HardCapExceeded", 5n * E18)).toBe("Only 5 QUEST are left in the sale.");
    expect(say("SaleNotStarted", 1_767_225_600n)).toBe("The sale has not started yet: it opens on Jan 1, 2026, 12:00 AM UTC.");
    expect(say("SaleEnded", 1_767_225_600n)).toBe("The sale has ended: it closed on Jan 1, 2026, 12:00 AM UTC.");
    expect(say("ERC20ExceededCap", 1n, 2n)).toBe("That would pass QUEST's total supply cap.");
    expect(say("Error", "nope")).toBe("The contract refused: nope.");
    expect(say("SomethingNew")).toBe("The contract refused the transaction (SomethingNew).");
  });

  it("tells the airdrop contract's refusals of a claim as sentences", () => {
    expect(say("AlreadyClaimed", 0n, 3n)).toBe("This share was claimed already: the tokens went to its address.");
    expect(say("ClaimWindowClosed", 0n, 1_767_225_600n)).toBe("Claims closed on Jan 1, 2026, 12:00 AM UTC: this share can no longer be claimed.");
    expect(say("InvalidProof")).toBe("The airdrop contract did not accept this share's proof: it does not match the published allocation.");
  });

  it("turns thrown errors into the page's message", () => {
    expect(txErrorMessage(new TxError("revert", "The sale is sold out."))).toEqual({ kind: "revert", message: "The sale is sold out.", final: false });
    expect(txErrorMessage(new TxError("revert", "Claimed already.", { final: true })).final).toBe(true);
    expect(txErrorMessage({ code: 4001, message: "User rejected" }).kind).toBe("rejected");
    expect(txErrorMessage(new Error("boom"))).toEqual({
      kind: "unknown",
      message: "The transaction could not be sent. Check your wallet and try again.",
      final: false,
    });
  });
});
