import { BaseError, ContractFunctionRevertedError } from "viem";

/** Why the vault, the token or the distributor refused a round's step, in words (the step is tried again on the next run). */
export function describeRoundRevert(error: unknown): string {
  const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  const name = reverted instanceof ContractFunctionRevertedError ? (reverted.data?.errorName ?? "unknown") : "unknown";
  switch (name) {
    case "EnforcedPause":
      return "The vault is paused, so the round cannot be funded yet; it is tried again once the vault runs.";
    case "ERC20InsufficientBalance":
      return "The vault (or the operator) does not hold enough tokens to fund the round yet; it is tried again.";
    case "AccessControlUnauthorizedAccount":
      return "The operator account may not do this on the vault or the airdrop contract: an operator must grant it the role.";
    case "InvalidRound":
      return "The airdrop contract refused the round (its claims close too soon); it is tried again.";
    case "RoundStillOpen":
      return "Claims are still open on chain, so the rest cannot be swept yet.";
    default:
      return `The chain refused the round's step (${name}); it is tried again on the next run.`;
  }
}
