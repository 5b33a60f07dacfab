import type { Page } from "@playwright/test";
import { encodeFunctionData, parseEther } from "viem";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import type { DemoChainReading } from "../../app/modules/chain/demo-dapp.ts";
import { loaderData } from "./fixtures.ts";
import { screenshot } from "./quest-helpers.ts";
import { DEMO_SWAP_FUNCTION } from "#contracts/demo-signatures";
import { SAME_ORIGIN } from "./fixtures.ts";
import { uniqueSuffix } from "./quest-helpers.ts";
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

/** A form posted as the page's own would be; the server answers with a redirect to what it saved. */
async function post(page: Page, url: string, form: Record<string, string>) {
  const response = await page.request.post(url, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), `POST ${url} redirects to what it saved`).toBe(302);
  return new URL(response.headers().location!, page.url()).pathname;
}

const TASK_FIELDS = { description: "", xp: "25", verification: "auto", recurrence: "once", startsAt: "", endsAt: "", cap: "", campaignId: "", published: "on" };

test("a member mints an Explorer and swaps in the browser, then completes the two on-chain tasks they ask for", async ({ page, wallet, newPage, signIn }) => {
  // The demo contracts' addresses, as the Demo dApp shows them.
  await signInWithWallet(page, wallet);
  const rpc = await localRpcUrl(page);
  await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);
  await page.goto("/demo-dapp");
  const [local] = (await loaderData<{ chains: DemoChainReading[] }>(page, "routes/demo-dapp"))!.chains.filter((chain) => chain.chainId === 31337);
  if (!local?.ok) throw new Error("the local chain has no demo contracts");

  // A project's owner asks for an Explorer held and a swap on the demo swap.
  const owner = await newPage();
  await signIn(owner);
  const suffix = uniqueSuffix();
  await owner.goto("/");
  await post(owner, "/projects/new", {
    name: `Onchain ${suffix}`,
    slug: `onchain-${suffix}`,
    description: "",
    categoryId: "",
    website: "",
    xUrl: "",
    discordUrl: "",
    telegramUrl: "",
  });
  const holdTask = await post(owner, `/projects/onchain-${suffix}/tasks/new`, {
    ...TASK_FIELDS,
    title: "Hold an Explorer",
    type: "nft_hold",
    "config.chainId": "31337",
    "config.contract": local.collection,
    "config.standard": "erc721",
    "config.minCount": "1",
    "config.name": "Questline Explorers",
    "config.actionUrl": "/demo-dapp",
    "config.recheckBeforeRewards": "on",
  });
  const swapTask = await post(owner, `/projects/onchain-${suffix}/tasks/new`, {
    ...TASK_FIELDS,
    title: "Swap on the demo swap",
    type: "contract_call",
    "config.chainId": "31337",
    "config.contract": local.swap,
    "config.signatures": DEMO_SWAP_FUNCTION,
    "config.actionUrl": "/demo-dapp",
  });

  // Not done yet: the check says so, and nothing is recorded.
  await page.goto(holdTask);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByText(/None of your linked wallets holds/)).toBeVisible();

  // The member mints an Explorer and swaps 10 QUEST for USDC from the Demo dApp.
  await chainRpc(rpc, "eth_sendTransaction", [
    {
      from: DEV_ADDRESSES[0],
      to: local.tokenA.address,
      data: encodeFunctionData({ abi: questTokenAbi, functionName: "mint", args: [wallet.address, parseEther("100")] }),
    },
  ]);
  await page.goto("/demo-dapp");
  await section(page).getByRole("button", { name: "Mint an Explorer" }).click();
  await expect(page.locator("[data-tx=confirmed]", { hasText: "Mint an Explorer" })).toBeVisible();
  await section(page).getByLabel("Amount (QUEST)").fill("10");
  await section(page).getByRole("button", { name: "Swap", exact: true }).click();
  await expect(page.locator("[data-tx=confirmed]", { hasText: "(step 2 of 2)" })).toBeVisible();
  const swapHash = wallet.sentTransactions.at(-1)!.hash;

  // Both tasks, checked on the chain: the holding read, the swap found among the latest blocks.
  await page.goto(holdTask);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByText(/Checked on Questline Local: holding read at block \d+/)).toBeVisible();
  // The swap counts from the chain's confirmation depth (2 blocks on this server): one more block, then it does.
  await page.goto(swapTask);
  await page.getByRole("button", { name: "Find my transaction" }).click();
  await expect(page.getByText("Your transaction has 1 of the 2 confirmations it needs. Try again in a minute.")).toBeVisible();
  await chainRpc(rpc, "anvil_mine", ["0x1"]);
  await page.getByRole("button", { name: "Find my transaction" }).click();
  await expect(page.getByText(/Checked on Questline Local at block \d+ — transaction/)).toBeVisible();
  await expect(page.getByText(new RegExp(`${swapHash.slice(0, 6)}…${swapHash.slice(-4)}`, "i"))).toBeVisible();
  await screenshot(page, "onchain-task-swap-done");
});
