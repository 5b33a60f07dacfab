import path from "node:path";
import type { Page } from "@playwright/test";
import type { TestWallet } from "../fakes/injected-wallet.ts";
import { APP_URL } from "./urls.ts";
import { approveSignature, chainRpc, expect, localRpcUrl, signInWithWallet, switchNetwork, walletTest } from "./wallet-helpers.ts";

/**
 * The Mint and Token sale screens with the test wallet on the app's local chain (anvil, where the
 * app deployed QuestToken with its public mint open, 0.001 ETH per token, 10 000 per wallet, and
 * the TokenSale running for 30 days at 0.0005 ETH, 100 000 per wallet). Each test is a new
 * wallet, given 100 ETH on the local chain.
 */
const test = walletTest;

test.use({ bypassCSP: true });
test.describe.configure({ timeout: 90_000 });

const HUNDRED_ETH = "0x56BC75E2D63100000";

/** Signs in with the wallet and gives it 100 ETH on the local chain; returns the chain's RPC URL. */
async function memberWithCoins(page: Page, wallet: TestWallet) {
  await signInWithWallet(page, wallet);
  const rpc = await localRpcUrl(page);
  await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);
  return rpc;
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const stat = (page: Page, label: string) => page.locator("dl > div", { has: page.getByText(label, { exact: true }) });
/** A stat's figure alone (its first <dd>), so "0 QUEST" cannot match "100 QUEST". */
const statValue = (page: Page, label: string) => stat(page, label).locator("dd").first();
const sends = (wallet: TestWallet) => wallet.calls.filter((method) => method === "eth_sendTransaction").length;

test("mints within the cap (the balance goes up); over the cap, a bad amount or a rejection sends nothing", async ({ page, wallet }) => {
  await memberWithCoins(page, wallet);
  await nav(page, "Mint").click();
  await expect(page).toHaveURL(/\/mint/);
  await expect(page).toHaveTitle(/^Mint - /);
  await expect(stat(page, "Price")).toContainText("0.001 ETH");
  await expect(statValue(page, "Per-wallet cap")).toHaveText("10,000 QUEST");
  // The wallet's own numbers come once the page knows the connected account.
  await expect(statValue(page, "Your balance")).toHaveText("0 QUEST");
  await expect(stat(page, "Your balance")).toContainText("100 ETH");
  // The picker offers the page's network first, then every network members sign in on.
  const networks = page.getByLabel("Network", { exact: true }).locator("option");
  await expect(networks.first()).toHaveText("Questline Local");
  await expect(networks).toContainText(["Ethereum", "Base", "BNB Smart Chain", "Sepolia"]);

  const amount = page.getByLabel("Amount (QUEST)");
  const mint = page.getByRole("button", { name: "Mint", exact: true });

  // Checked before anything is sent.
  await amount.fill("abc");
  await mint.click();
  await expect(page.getByText("Enter a number, like 10 or 2.5 (at most 18 decimals).")).toBeVisible();
  await amount.fill("0");
  await mint.click();
  await expect(page.getByText("Enter an amount above 0.")).toBeVisible();
  expect(sends(wallet)).toBe(0);

  await amount.fill("25");
  await expect(page.getByText("Costs 0.025 ETH, plus the network fee.")).toBeVisible();
  await mint.click();
  await expect(page.getByText("Transaction confirmed")).toBeVisible();
  await expect(page.locator("[data-tx=confirmed]")).toContainText("Mint 25 QUEST");
  const [sent] = wallet.sentTransactions;
  await expect(page.locator("[data-tx=confirmed]")).toContainText(sent!.hash);
  await expect(statValue(page, "Your balance")).toHaveText("25 QUEST");
  await expect(statValue(page, "Already minted")).toHaveText("25 QUEST");
  await expect(stat(page, "Already minted")).toContainText("9,975 left for this wallet");
  await page.getByRole("button", { name: "Done" }).click();

  // Over the per-wallet cap: refused with the reason, and the wallet is never asked.
  await amount.fill("9976");
  await mint.click();
  await expect(page.getByText("That is over the limit of 10,000 QUEST per wallet: this wallet may mint 9,975 QUEST more.")).toBeVisible();
  expect(sends(wallet), "no transaction sent for a mint over the cap").toBe(1);

  // The member rejects in the wallet: told so, and back to idle.
  wallet.refuseTransactions = true;
  await amount.fill("1");
  await mint.click();
  await expect(page.getByText("You rejected the transaction in your wallet. Nothing was sent.")).toBeVisible();
  await expect(mint).toBeEnabled();
  expect(wallet.sentTransactions).toHaveLength(1);
});

test("a pending mint is followed again after a reload, until it is confirmed", async ({ page, wallet }) => {
  const rpc = await memberWithCoins(page, wallet);
  await page.goto("/mint");
  await expect(stat(page, "Your balance")).toContainText("100 ETH");
  await chainRpc(rpc, "evm_setAutomine", [false]);
  try {
    await page.getByLabel("Amount (QUEST)").fill("3");
    await page.getByRole("button", { name: "Mint", exact: true }).click();
    const pending = page.locator("[data-tx=pending]");
    await expect(pending).toContainText("Transaction pending…");
    const hash = wallet.sentTransactions[0]!.hash;
    await expect(pending).toContainText(hash);

    await page.reload();
    await expect(page.locator("[data-tx=pending]")).toContainText(hash);
    await chainRpc(rpc, "evm_mine");
    await expect(page.locator("[data-tx=confirmed]")).toContainText(hash);
    await expect(statValue(page, "Your balance")).toHaveText("3 QUEST");
  } finally {
    await chainRpc(rpc, "evm_setAutomine", [true]);
  }
});

test("the wallet switching network mid-flow: the pending mint is still followed to its end, and minting waits for the right network", async ({
  page,
  wallet,
}) => {
  const rpc = await memberWithCoins(page, wallet);
  await page.goto("/mint");
  await expect(stat(page, "Your balance")).toContainText("100 ETH");
  await chainRpc(rpc, "evm_setAutomine", [false]);
  try {
    await page.getByLabel("Amount (QUEST)").fill("4");
    await page.getByRole("button", { name: "Mint", exact: true }).click();
    await expect(page.locator("[data-tx=pending]")).toBeVisible();
    const hash = wallet.sentTransactions[0]!.hash;

    await switchNetwork(page, "Sepolia");
    await approveSignature(page);
    await expect.poll(() => wallet.chainId).toBe(11155111);
    await expect(page.getByText("Your wallet is on Sepolia. Switch to Questline Local to mint.")).toBeVisible();
    await expect(page.locator("[data-tx=pending]")).toContainText(hash);
    await chainRpc(rpc, "evm_mine");
    await expect(page.locator("[data-tx=confirmed]")).toContainText(hash);
  } finally {
    await chainRpc(rpc, "evm_setAutomine", [true]);
  }
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Switch to Questline Local" }).first().click();
  await expect.poll(() => wallet.chainId).toBe(31337);
  await expect(page.getByLabel("Amount (QUEST)")).toBeVisible();
  await expect(statValue(page, "Your balance")).toHaveText("4 QUEST");
});

test("buys in the sale; over the wallet cap is refused; after the sale ends buying is refused before sending", async ({ page, wallet }) => {
  const rpc = await memberWithCoins(page, wallet);
  await nav(page, "Token sale").click();
  await expect(page).toHaveURL(/\/sale/);
  await expect(page).toHaveTitle(/^Token sale - /);
  // The sale runs 30 days from the deployment; other specs move the shared chain's clock on by a day or so.
  await expect(page.getByTestId("sale-phase")).toHaveText(/^Ends in 2\dd /);
  await expect(stat(page, "Your balance")).toContainText("100 ETH");

  await page.getByRole("button", { name: "Buy QUEST" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy QUEST" });
  await dialog.getByLabel("You pay (ETH)").fill("0.05");
  await expect(dialog.getByLabel("You get (QUEST)")).toHaveValue("100");
  await dialog.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(dialog.locator("[data-tx=confirmed]")).toContainText("Buy 100 QUEST");
  await dialog.getByRole("button", { name: "Done" }).click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(statValue(page, "You bought")).toHaveText("100 QUEST");
  await expect(page.getByText("100 / 10,000,000 QUEST sold")).toBeVisible();
  expect(sends(wallet)).toBe(1);

  // Over the wallet's cap: told before sending.
  await page.getByRole("button", { name: "Buy QUEST" }).click();
  await dialog.getByLabel("You get (QUEST)").fill("99901");
  await expect(dialog.getByLabel("You pay (ETH)")).toHaveValue("49.9505");
  await dialog.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(dialog.getByText("That is over the limit of 100,000 QUEST per wallet: this wallet may buy 99,900 QUEST more.")).toBeVisible();
  expect(sends(wallet)).toBe(1);

  // The sale ends while the modal is open (the chain's clock jumps 31 days).
  await dialog.getByLabel("You get (QUEST)").fill("10");
  const snapshot = await chainRpc<string>(rpc, "evm_snapshot");
  try {
    await chainRpc(rpc, "evm_increaseTime", [31 * 24 * 3600]);
    await chainRpc(rpc, "evm_mine");
    await dialog.getByRole("button", { name: "Buy", exact: true }).click();
    await expect(dialog.locator("[data-tx=failed]")).toContainText(/The sale has ended: it closed on /);
    expect(sends(wallet), "nothing sent after the sale ended").toBe(1);
    // A sale that has ended will not reopen: nothing to try again.
    await expect(dialog.getByRole("button", { name: "Try again" })).toHaveCount(0);
    await page.keyboard.press("Escape");

    await page.reload();
    await expect(page.getByTestId("sale-phase")).toHaveText("The sale has ended.");
    await expect(page.getByRole("button", { name: "Buy QUEST" })).toBeDisabled();
  } finally {
    await chainRpc(rpc, "evm_revert", [snapshot]);
  }
});

test("the dashboard leads to Mint and Token sale (Swap needs the wallet service, which these tests run without)", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  for (const name of ["Token sale", "Mint"]) {
    await page.goto("/dashboard");
    await page.getByRole("main").getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }
  await page.goto("/dashboard");
  await expect(page.getByRole("main").getByRole("link", { name: "Swap", exact: true })).toHaveCount(0);
});

for (const theme of ["light", "dark"] as const) {
  test(`screenshots of Mint and Token sale, ${theme}`, async ({ page, context, wallet }) => {
    await page.emulateMedia({ colorScheme: theme });
    await context.addCookies([{ name: "appearance", value: theme, url: APP_URL }]);
    const shoot = (name: string) =>
      page.screenshot({ path: path.join(test.info().project.outputDir, "screenshots", `${name}-${theme}.png`), animations: "disabled", fullPage: true });

    await memberWithCoins(page, wallet);
    await page.goto("/mint");
    await expect(stat(page, "Your balance")).toContainText("100 ETH");
    await page.getByLabel("Amount (QUEST)").fill("20000");
    await page.getByRole("button", { name: "Mint", exact: true }).click();
    await expect(page.getByText(/over the limit/)).toBeVisible();
    await shoot("mint");
    await page.goto("/sale");
    await expect(stat(page, "Your balance")).toContainText("100 ETH");
    await shoot("sale");
    await page.getByRole("button", { name: "Buy QUEST" }).click();
    await page.getByRole("dialog").getByLabel("You pay (ETH)").fill("0.01");
    await shoot("sale-modal");
    await page.keyboard.press("Escape");

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/mint");
    await expect(stat(page, "Your balance")).toContainText("100 ETH");
    await shoot("mint-375");
    await page.goto("/sale");
    await expect(stat(page, "Your balance")).toContainText("100 ETH");
    await shoot("sale-375");
    await page.goto("/dashboard");
    await shoot("dashboard-token-card");
  });
}
