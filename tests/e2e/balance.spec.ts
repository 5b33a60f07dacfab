import type { Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, parseAbiItem, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { depositVaultAbi } from "../../contracts/generated/deposit-vault.ts";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import { DEV_PRIVATE_KEYS } from "../../contracts/dev-accounts.ts";
import { CLUSTER_TAG, expectConsoleError, loaderData } from "./fixtures.ts";
import { screenshot } from "./quest-helpers.ts";
import { approveSignature, chainRpc, expect, localRpcUrl, short, signInWithWallet, walletTest } from "./wallet-helpers.ts";
import { jobWait } from "./urls.ts";

/**
 * The Balance screen with the test wallet on the app's local chain: a deposit by amount
 * (approve, then `DepositVault.deposit`) is pending until its second confirmation, then
 * credited; withdrawals are paid by the app's operator job through the vault, once, including
 * one that fails while the vault is paused and is retried after it resumes.
 */
const test = walletTest;

test.use({ bypassCSP: true });
test.describe.configure({ timeout: 120_000 });

const HUNDRED_ETH = "0x56BC75E2D63100000";
const stat = (page: Page, label: string) => page.locator("dl > div", { has: page.getByText(label, { exact: true }) });
const statValue = (page: Page, label: string) => stat(page, label).locator("dd").first();
const withdrawalRows = (page: Page) => page.locator("[data-withdrawal]");

/** The token and vault the Balance page works with, from its loader data. */
async function contractsOf(page: Page): Promise<{ token: Address; vault: Address }> {
  const facts = (await loaderData<{ chain?: { facts?: { token: string; vault: string } } }>(page, "routes/balance"))?.chain?.facts;
  if (!facts) throw new Error("the Balance page names no vault");
  return { token: facts.token as Address, vault: facts.vault as Address };
}

/** The second local chain, as viem describes it. */
const anvil31338 = { ...anvil, id: 31338, name: "Questline Local B" } as const;

/** A local chain's admin (anvil's first dev account): mints test tokens, pauses the vault. */
function admin(rpc: string, chain: typeof anvil | typeof anvil31338 = anvil) {
  const transport = http(rpc);
  return {
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) }),
    reader: createPublicClient({ chain, transport, pollingInterval: 50 }),
  };
}

async function call(
  rpc: string,
  address: Address,
  abi: typeof questTokenAbi | typeof depositVaultAbi,
  functionName: string,
  args: unknown[] = [],
  chain: typeof anvil | typeof anvil31338 = anvil,
) {
  const { wallet, reader } = admin(rpc, chain);
  const hash = await wallet.writeContract({ address, abi, functionName, args } as never);
  await reader.waitForTransactionReceipt({ hash });
}

const tokenBalance = (rpc: string, token: Address, account: Address, chain: typeof anvil | typeof anvil31338 = anvil) =>
  admin(rpc, chain).reader.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [account] });

/** How many times the vault paid `withdrawalId`. */
async function payments(rpc: string, vault: Address, withdrawalId: Hex) {
  const logs = await admin(rpc).reader.getLogs({
    address: vault,
    event: parseAbiItem("event Withdrawn(bytes32 indexed withdrawalId, address indexed to, uint256 amount, address indexed operator)"),
    args: { withdrawalId },
    fromBlock: 0n,
  });
  return logs.length;
}

/** The withdrawal row shows `sent` with its transaction; a second block confirms it (2 confirmations here) and the row goes. */
async function sentThenConfirmed(page: Page, rpc: string) {
  const row = withdrawalRows(page).first();
  await expect(row).toHaveAttribute("data-status", "sent", { timeout: 30_000 });
  await expect(row).toContainText(/0x[0-9a-f]{64}/);
  await chainRpc(rpc, "evm_mine");
  await expect(withdrawalRows(page)).toHaveCount(0, { timeout: 30_000 });
}

test(
  "deposit by amount is pending until confirmed, then credited; a withdrawal is paid to the wallet once",
  CLUSTER_TAG,
  async ({ page, wallet, newPage, signIn }) => {
    await signInWithWallet(page, wallet);
    const rpc = await localRpcUrl(page);
    await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Balance", exact: true }).click();
    await expect(page).toHaveTitle(/^Balance - /);
    await expect(page.getByText("No transactions yet")).toBeVisible();
    const { token, vault } = await contractsOf(page);
    await call(rpc, token, questTokenAbi, "mint", [wallet.address, parseEther("500")]);
    await page.reload();
    await expect(statValue(page, "In your wallet")).toHaveText("500 QUEST");
    await expect(statValue(page, "Available")).toHaveText("0 QUEST");

    // Deposit by card cannot work here (no wallet service, and the local chain's tokens are sold
    // nowhere): it is not offered.
    await expect(page.getByText("Deposit by card")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Buy with card" })).toHaveCount(0);

    // Deposit: bad amounts are refused before the wallet is asked.
    const depositAmount = page.getByLabel("Deposit amount (QUEST)");
    await depositAmount.fill("600");
    await page.getByRole("button", { name: "Deposit", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Your wallet holds 500 QUEST." })).toBeVisible();
    expect(wallet.sentTransactions).toHaveLength(0);

    // Approve, then deposit: two transactions, then the deposit waits for its second confirmation.
    await depositAmount.fill("100");
    await page.getByRole("button", { name: "Deposit", exact: true }).click();
    await expect(page.locator("[data-tx=confirmed]")).toContainText("Deposit 100 QUEST (step 2 of 2)");
    expect(wallet.sentTransactions).toHaveLength(2);
    const pending = page.locator("[data-deposit]");
    await expect(pending).toContainText("pending (1/2 confirmations)");
    await screenshot(page, "balance-deposit-pending");
    await chainRpc(rpc, "evm_mine");
    await expect(pending).toHaveCount(0);
    await expect(statValue(page, "Available")).toHaveText("100 QUEST");
    await expect(page.getByRole("row", { name: /Deposit \+100 QUEST credited/ })).toBeVisible();
    expect(await tokenBalance(rpc, token, wallet.address)).toBe(parseEther("400"));

    // Withdraw 40 to the signed-in wallet: held at once, paid by the operator job, confirmed. (A
    // refused request answers 400, which the browser logs.)
    expectConsoleError(/status of 400/);
    const withdrawAmount = page.getByLabel("Withdrawal amount (QUEST)");
    await withdrawAmount.fill("0.5");
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The smallest withdrawal is 1 QUEST." })).toBeVisible();
    await expect(statValue(page, "Held")).toHaveText("0 QUEST");
    await withdrawAmount.fill("40");
    await expect(page.getByLabel("To wallet")).toHaveValue(new RegExp(wallet.address, "i"));
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(page.getByText("Withdrawal requested: it is on its way.")).toBeVisible();
    await expect(statValue(page, "Available")).toHaveText("60 QUEST");
    await sentThenConfirmed(page, rpc);
    await expect(page.getByRole("row", { name: /Withdrawal requested -40 QUEST confirmed/ })).toBeVisible();
    await expect.poll(() => tokenBalance(rpc, token, wallet.address)).toBe(parseEther("440"));
    await expect(statValue(page, "Held")).toHaveText("0 QUEST");
    await screenshot(page, "balance-after-withdrawal");

    // An operator pauses withdrawals: a request is held and waits, saying so; a waiting one can be
    // cancelled (its hold released); after the operator resumes, the other is paid.
    const operatorPage = await newPage();
    await signIn(operatorPage, "operator@example.com");
    await operatorPage.goto("/operator/withdrawals");
    await expect(operatorPage).toHaveTitle(/^Withdrawals - /);
    await operatorPage.getByRole("button", { name: "Pause withdrawals" }).click();
    await expect(operatorPage.getByRole("heading", { name: "Withdrawals are paused" })).toBeVisible();
    await page.reload();
    await expect(page.getByText("Withdrawals are paused by the operators. Requests wait and go out when they resume.")).toBeVisible();
    await withdrawAmount.fill("5");
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(page.getByText("Withdrawal requested: it waits until withdrawals resume.")).toBeVisible();
    await withdrawAmount.fill("3");
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(withdrawalRows(page)).toHaveCount(2);
    await expect(withdrawalRows(page).first()).toContainText("Waiting: withdrawals are paused by the operators.");
    await expect(statValue(page, "Held")).toHaveText("8 QUEST");
    await withdrawalRows(page).filter({ hasText: "Withdrawal of 3 QUEST" }).getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText("Withdrawal cancelled: the amount is back in your balance")).toBeVisible();
    await expect(withdrawalRows(page)).toHaveCount(1);
    await expect(statValue(page, "Held")).toHaveText("5 QUEST");
    // The job marks it waiting on its next run (every second); the operator's list shows it then.
    await expect(async () => {
      await operatorPage.reload();
      await expect(operatorPage.locator("[data-withdrawal]")).toContainText("waiting", { timeout: 1_000 });
    }).toPass({ timeout: jobWait(15_000) });
    expect(await tokenBalance(rpc, token, wallet.address), "nothing paid while paused").toBe(parseEther("440"));
    await operatorPage.getByRole("button", { name: "Resume withdrawals" }).click();
    await expect(operatorPage.getByRole("heading", { name: "Withdrawals are being paid" })).toBeVisible();
    await sentThenConfirmed(page, rpc);
    await expect.poll(() => tokenBalance(rpc, token, wallet.address)).toBe(parseEther("445"));
    await expect(statValue(page, "Available")).toHaveText("55 QUEST");

    // The vault is paused: the next withdrawal fails with the reason, keeps its hold, and a Retry
    // after the vault resumes pays it, once.
    await call(rpc, vault, depositVaultAbi, "pause");
    try {
      await withdrawAmount.fill("10");
      await page.getByRole("button", { name: "Withdraw", exact: true }).click();
      const row = withdrawalRows(page).first();
      await expect(row).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
      await expect(row).toContainText(/paused/i);
      await expect(statValue(page, "Held")).toHaveText("10 QUEST");
      await expect(statValue(page, "Available")).toHaveText("45 QUEST");
      await screenshot(page, "balance-withdrawal-failed");
    } finally {
      await call(rpc, vault, depositVaultAbi, "unpause");
    }
    const id = (await withdrawalRows(page).first().getAttribute("data-withdrawal")) as Hex;
    await withdrawalRows(page).first().getByRole("button", { name: "Retry" }).click();
    await sentThenConfirmed(page, rpc);
    await expect.poll(() => tokenBalance(rpc, token, wallet.address)).toBe(parseEther("455"));
    expect(await payments(rpc, vault, id)).toBe(1);
    await expect(statValue(page, "Available")).toHaveText("45 QUEST");
    await expect(statValue(page, "Held")).toHaveText("0 QUEST");

    // The dashboard shows the balance.
    await page.goto("/dashboard");
    await expect(page.locator("[data-balance='QUEST:31337']")).toContainText("45 QUEST");
  },
);

test(
  "an operator gives a deposit that matched no member to the member whose wallet sent it; it is credited to them once",
  CLUSTER_TAG,
  async ({ page, wallet, newPage, signIn }) => {
    await signInWithWallet(page, wallet);
    const rpc = await localRpcUrl(page);
    await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);
    await page.goto("/balance");
    const { token, vault } = await contractsOf(page);
    await call(rpc, token, questTokenAbi, "mint", [wallet.address, parseEther("50")]);

    // The member deposits straight to the vault with a reference that is nobody's.
    const sender = createWalletClient({ chain: anvil, transport: http(rpc), account: wallet.account });
    const { reader } = admin(rpc);
    await reader.waitForTransactionReceipt({
      hash: await sender.writeContract({ address: token, abi: questTokenAbi, functionName: "approve", args: [vault, parseEther("20")] }),
    });
    const deposited = await sender.writeContract({
      address: vault,
      abi: depositVaultAbi,
      functionName: "deposit",
      args: [parseEther("20"), `0x${"5e".repeat(32)}`],
    });
    await reader.waitForTransactionReceipt({ hash: deposited });
    await chainRpc(rpc, "evm_mine");

    // A second operator (each address may ask for a sign-in e-mail once in 30 s; the other test signs the first one in).
    const operatorPage = await newPage();
    await signIn(operatorPage, "treasurer@example.com");
    await operatorPage.goto("/operator/withdrawals");
    await operatorPage.getByRole("navigation", { name: "Operator screens" }).getByRole("link", { name: "Deposits" }).click();
    await expect(operatorPage).toHaveTitle(/^Deposits - /);
    // The scanner records it within a second or two.
    const row = operatorPage.locator("[data-deposit]", { hasText: deposited });
    await expect(async () => {
      await operatorPage.reload();
      await expect(row).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: jobWait(20_000) });
    await expect(row).toContainText("20 QUEST");
    await expect(row).toContainText(`Sent from a wallet linked to ${short(wallet.address.toLowerCase())}.`);
    const member = row.getByLabel("Give to member (e-mail, username or wallet)");
    await expect(member).toHaveValue(new RegExp(`^${wallet.address}$`, "i"));
    await screenshot(operatorPage, "operator-unmatched-deposit");

    // A member nobody is: refused in words, nothing given. (The refusal answers 400, which the browser logs.)
    expectConsoleError(/status of 400/);
    await member.fill("nobody@example.com");
    await row.getByRole("button", { name: "Give deposit" }).click();
    await expect(row.getByText("No member has that e-mail, username or wallet.")).toBeVisible();
    await expect(member).toHaveAttribute("aria-invalid", "true");
    // Nothing was given: after a reload the deposit is still listed, and on a phone, in dark.
    await operatorPage.setViewportSize({ width: 375, height: 800 });
    await operatorPage.emulateMedia({ colorScheme: "dark" });
    await operatorPage.reload();
    await expect(row).toBeVisible();
    await screenshot(operatorPage, "operator-unmatched-deposit-phone-dark");

    await member.fill(wallet.address);
    await row.getByRole("button", { name: "Give deposit" }).click();
    // Said by the page once its data reloads: the row itself leaves the list in that reload.
    const notice = operatorPage.getByRole("region", { name: "Notifications" }).locator("[data-tone]", { hasText: "Deposit given to" });
    await expect(notice).toContainText(`Deposit given to ${short(wallet.address.toLowerCase())}`);
    await expect(notice).toContainText("It is credited to them once its block is confirmed.");
    await screenshot(operatorPage, "operator-deposit-given-phone-dark");
    await expect(operatorPage.getByText("No unmatched deposits")).toBeVisible();

    // The member's balance: credited once, on the next scan.
    await expect(async () => {
      await page.reload();
      await expect(statValue(page, "Available")).toHaveText("20 QUEST", { timeout: 1_000 });
    }).toPass({ timeout: jobWait(20_000) });
    await expect(page.getByRole("row", { name: /Deposit \+20 QUEST credited/ })).toHaveCount(1);
  },
);

test("on the second chain and in its second token: the wallet switches there, deposits USDC and withdraws it, paid by that chain's vault", async ({
  page,
  wallet,
}) => {
  await signInWithWallet(page, wallet);
  const rpc = await localRpcUrl(page, 31338);
  await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);

  // The member picks the network and the token on the page; their wallet is still on the first chain.
  await page.goto("/balance");
  await page.getByRole("navigation", { name: "Network" }).getByRole("link", { name: "Questline Local B" }).click();
  await expect(page).toHaveURL(/chain=31338/);
  await page.getByRole("navigation", { name: "Token" }).getByRole("link", { name: "USDC" }).click();
  await expect(page).toHaveURL(/chain=31338&token=USDC/);
  const usdc = (await loaderData<{ chain?: { facts?: { token: string } } }>(page, "routes/balance"))?.chain?.facts?.token as Address;
  // The stand-in USDC (6 decimals) lets anyone mint on a local chain.
  await call(rpc, usdc, questTokenAbi, "mint", [wallet.address, 300_000_000n], anvil31338);
  await page.reload();
  await expect(statValue(page, "In your wallet")).toHaveText("300 USDC");
  await expect(stat(page, "Available")).toContainText("On Questline Local B");

  // Depositing needs the wallet on that chain: the card offers the switch.
  await expect(page.getByText("Switch to Questline Local B to deposit.")).toBeVisible();
  await page.getByRole("button", { name: "Switch to Questline Local B" }).click();
  // A network the member has not signed on yet asks for a signature there (one session per network).
  await approveSignature(page);
  await expect.poll(() => wallet.chainId).toBe(31338);
  await expect(page).toHaveURL(/chain=31338/);
  await page.getByLabel("Deposit amount (USDC)").fill("100.5");
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await expect(page.locator("[data-tx=confirmed]")).toContainText("Deposit 100.5 USDC (step 2 of 2)");
  // One confirmation on this chain: credited on the next scan.
  await expect(statValue(page, "Available")).toHaveText("100.5 USDC", { timeout: jobWait(20_000) });
  await screenshot(page, "balance-second-chain-usdc");

  // Withdraw 40.25 USDC there: paid by the second chain's vault, in USDC's own units.
  await page.getByLabel("Withdrawal amount (USDC)").fill("40.25");
  await page.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(page.getByText("Withdrawal requested: it is on its way.")).toBeVisible();
  await expect(withdrawalRows(page)).toHaveCount(0, { timeout: jobWait(30_000) });
  await expect.poll(() => tokenBalance(rpc, usdc, wallet.address, anvil31338)).toBe(199_500_000n + 40_250_000n);
  await expect(statValue(page, "Available")).toHaveText("60.25 USDC");
  await expect(page.getByRole("row", { name: /Withdrawal requested -40\.25 USDC confirmed/ })).toBeVisible();

  // USDC on the first chain is another asset, untouched; the second chain's stays listed.
  await page.getByRole("navigation", { name: "Network" }).getByRole("link", { name: "Questline Local", exact: true }).click();
  await expect(stat(page, "Available")).toContainText("On Questline Local");
  await expect(statValue(page, "Available")).toHaveText("0 USDC");
  await expect(stat(page, "USDC on Questline Local B")).toContainText("60.25 USDC");
});
