import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
import { describeWithdrawalRevert, type WithdrawalChain } from "./withdrawal-chain.server";

let node: LocalChain;
let vault: VaultOnChain;
let chain: WithdrawalChain;

beforeAll(async () => {
  node = await startLocalChain();
  vault = await vaultOnChain(node.url);
  chain = vault.chain();
}, 60_000);
afterAll(() => node.stop());

/** What the job's signing step meets: preparing (estimating the gas of) a `withdraw` transaction. */
async function prepareError(id: Hex): Promise<unknown> {
  const wallet = chain.operator!;
  const data = encodeFunctionData({ abi: depositVaultAbi, functionName: "withdraw", args: [id, DEV_ADDRESSES[2], 5n] });
  return wallet.prepareTransactionRequest({ account: wallet.account, chain: wallet.chain, to: chain.vault, data }).then(
    () => null,
    (error: unknown) => error,
  );
}

describe("describeWithdrawalRevert", () => {
  it("names the paused vault when preparing the transaction is refused, not only when simulating it", async () => {
    await vault.setVaultPaused(true);
    try {
      // The vault paused between the job's simulation and its signing: the gas estimate reverts
      // with the node's raw revert data, which must still read as the pause.
      expect(describeWithdrawalRevert(await prepareError(`0x${"11".repeat(32)}`))).toBe("The vault is paused, so nothing was paid. Retry once it runs again.");
    } finally {
      await vault.setVaultPaused(false);
    }
    expect(await prepareError(`0x${"12".repeat(32)}`)).toBeNull();
  });

  it("says nothing of errors that are no revert", () => {
    expect(describeWithdrawalRevert(new Error("fetch failed"))).toBeNull();
  });
});
