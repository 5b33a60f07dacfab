import type { Browser, Page } from "@playwright/test";
import { createPublicClient, createWalletClient, erc20Abi, http, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { DEV_PRIVATE_KEYS } from "../../contracts/dev-accounts.ts";
import { depositVaultAbi } from "../../contracts/generated/deposit-vault.ts";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import { installTestWallet } from "../fakes/injected-wallet.ts";
import { stubReownCloud } from "../fakes/reown-cloud.ts";
import { expect, loaderData } from "./fixtures.ts";
import { APP_URL } from "./urls.ts";
import { chainRpc, signInWithWallet } from "./wallet-helpers.ts";

/** Steps the airdrop specs share: funding a project's treasury, members with wallets, completing a task. */

/** The project's Rewards page data the owner sees: the vault, its token and the project's deposit reference. */
export async function treasuryFacts(page: Page) {
  const data = await loaderData<{ depositRef: Hex; chain: { facts: { token: Address; vault: Address } } }>(page, "routes/projects/rewards");
  if (!data) throw new Error("the Rewards page has no data");
  return { ref: data.depositRef, token: data.chain.facts.token, vault: data.chain.facts.vault };
}

/** Deposits `amount` QUEST into the vault with the project's reference, from dev account 0 (the token's minter). */
export async function depositForProject(rpc: string, { ref, token, vault }: { ref: Hex; token: Address; vault: Address }, amount: string) {
  const transport = http(rpc);
  const client = createPublicClient({ chain: anvil, transport });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  const units = parseEther(amount);
  for (const hash of [
    await wallet.writeContract({ address: token, abi: questTokenAbi, functionName: "mint", args: [wallet.account.address, units] }),
    await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [vault, units] }),
    await wallet.writeContract({ address: vault, abi: depositVaultAbi, functionName: "deposit", args: [units, ref] }),
  ]) {
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
  // The local chain counts a deposit after two confirmations (playwright.config.ts).
  await chainRpc(rpc, "evm_mine");
}

/** A member in a browser of their own, signed in with a test wallet of their own (tests/fakes/injected-wallet.ts). */
export async function walletMember(browser: Browser) {
  const context = await browser.newContext({ baseURL: APP_URL, bypassCSP: true });
  const page = await context.newPage();
  await stubReownCloud(page, { appOrigin: APP_URL, reachable: true });
  const wallet = await installTestWallet(page);
  await signInWithWallet(page, wallet);
  return { page, wallet };
}

/** A card of the airdrop's page by its title ("Your points and rank", "Your share", "Allocation"). */
export const standingOf = (page: Page, name: string) => page.getByRole("region", { name });

/** Opens a visit task from the airdrop's page and verifies it: `xp` is paid, and counts as the airdrop's points. */
export async function completeTask(page: Page, airdropUrl: string, title: string, xp: number) {
  await page.goto(airdropUrl);
  await page.getByRole("link", { name: `Start: ${title}` }).click();
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(`+${xp} XP`)).toBeVisible();
}
