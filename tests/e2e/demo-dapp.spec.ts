import type { Page } from "@playwright/test";
import { encodeFunctionData, parseEther } from "viem";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import type { DemoChainReading } from "../../app/modules/chain/demo-dapp.ts";
import { loaderData } from "./fixtures.ts";
import { screenshot } from "./quest-helpers.ts";
import { chainRpc, expect, localRpcUrl, signInWithWallet, walletTest } from "./wallet-helpers.ts";

/**
 * The Demo dApp with the test wallet on the app's first local chain, where the app deployed the
 * demo ERC-721 (Questline Explorers), the ERC-1155 (Questline Items) and the fixed-rate QUEST/USDC
 * swap (1 QUEST = 0.01 USDC) at start. Each test is a new wallet, given 100 ETH and 1,000 QUEST.
 */
const test = walletTest;

test.use({ bypassCSP: true });
test.describe.configure({ timeout: 120_000 });

const HUNDRED_ETH = "0x56BC75E2D63100000";

const section = (page: Page) => page.locator("section[data-chain='31337']");
/** A holding's figure alone (its first <dd>). */
const holding = (page: Page, label: string) =>
  section(page)
    .locator("dl > div", { has: page.getByText(label, { exact: true }) })
    .locator("dd")
    .first();
const sends = (wallet: { calls: string[] }) => wallet.calls.filter((method) => method === "eth_sendTransaction").length;

async function darkMode(page: Page) {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.context().addCookies([{ name: "appearance", value: "dark", url: new URL(page.url()).origin }]);
  await page.reload();
  await expect(page.locator("html")).toHaveClass("dark");
}

test("a member mints an Explorer, mints items and swaps QUEST for USDC; the page shows what the wallet holds", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  const rpc = await localRpcUrl(page);
  await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);

  await page.goto("/demo-dapp");
  await expect(page).toHaveTitle(/^Demo dApp - /);
  await expect(page.getByRole("heading", { name: "Demo dApp", level: 1 })).toBeVisible();
  await expect(page.getByText("Contracts deployed on this server's local chains so you can try on-chain tasks: mint an NFT, mint items, swap.")).toBeVisible();
  // 1,000 QUEST minted by dev account 0, the local deployment's minter (anvil signs for its own accounts), as a member who bought some would hold.
  const [local] = (await loaderData<{ chains: DemoChainReading[] }>(page, "routes/demo-dapp"))!.chains.filter((chain) => chain.chainId === 31337);
  if (!local?.ok) throw new Error("the local chain has no demo contracts");
  await chainRpc(rpc, "eth_sendTransaction", [
    {
      from: DEV_ADDRESSES[0],
      to: local.tokenA.address,
      data: encodeFunctionData({ abi: questTokenAbi, functionName: "mint", args: [wallet.address, parseEther("1000")] }),
    },
  ]);
  await page.reload();
  await expect(holding(page, "Explorers")).toHaveText("0");
  await expect(holding(page, "QUEST")).toHaveText("1,000");
  await expect(holding(page, "USDC")).toHaveText("0");

  // Mint an Explorer (ERC-721): one token, id 1 on a fresh chain.
  await section(page).getByRole("button", { name: "Mint an Explorer" }).click();
  const explorer = page.locator("[data-tx=confirmed]", { hasText: "Mint an Explorer" });
  await expect(explorer).toBeVisible();
  const minted = wallet.sentTransactions[0]!.hash;
  await expect(explorer).toContainText(minted);
  await expect(page.getByText(`Transaction ${minted}`)).toBeVisible();
  await expect(holding(page, "Explorers")).toHaveText("1");

  // Mint items (ERC-1155): an amount outside 1 to 10 is refused before the wallet is asked.
  const amount = section(page).getByLabel("Amount", { exact: true });
  await amount.fill("11");
  await section(page).getByRole("button", { name: "Mint items" }).click();
  await expect(section(page).getByText("Enter a whole number from 1 to 10.")).toBeVisible();
  expect(sends(wallet)).toBe(1);
  await section(page).getByLabel("Item", { exact: true }).selectOption({ label: "Item 2" });
  await amount.fill("3");
  await section(page).getByRole("button", { name: "Mint items" }).click();
  await expect(page.locator("[data-tx=confirmed]", { hasText: "Mint 3 of item 2" })).toBeVisible();
  await expect(holding(page, "Items")).toHaveText("#1: 0 · #2: 3 · #3: 0");

  // Swap 150 QUEST for 1.5 USDC: approve (step 1 of 2), then the swap (step 2 of 2).
  const swapAmount = section(page).getByLabel("Amount (QUEST)");
  await swapAmount.fill("2000");
  await section(page).getByRole("button", { name: "Swap", exact: true }).click();
  await expect(section(page).getByText("Your wallet holds 1,000 QUEST.")).toBeVisible();
  await swapAmount.fill("150");
  await expect(section(page).getByText("You get 1.5 USDC.")).toBeVisible();
  await section(page).getByRole("button", { name: "Swap", exact: true }).click();
  const swapped = page.locator("[data-tx=confirmed]", { hasText: "Swap 150 QUEST for 1.5 USDC (step 2 of 2)" });
  await expect(swapped).toBeVisible();
  expect(sends(wallet)).toBe(4);
  await expect(swapped).toContainText(wallet.sentTransactions[3]!.hash);
  await expect(holding(page, "QUEST")).toHaveText("850");
  await expect(holding(page, "USDC")).toHaveText("1.5");
  await expect(holding(page, "Explorers")).toHaveText("1");

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(holding(page, "USDC")).toBeVisible();
  await screenshot(page, "demo-dapp-phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  await darkMode(page);
  await expect(holding(page, "USDC")).toHaveText("1.5");
  await screenshot(page, "demo-dapp-dark");
});
