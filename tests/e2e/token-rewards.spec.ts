import { spawnSync } from "node:child_process";
import type { Browser, Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, parseEther, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import { DEV_PRIVATE_KEYS } from "../../contracts/dev-accounts.ts";
import { installTestWallet, type TestWallet } from "../fakes/injected-wallet.ts";
import { stubReownCloud } from "../fakes/reown-cloud.ts";
import { treasuryFacts } from "./airdrop-helpers.ts";
import { CLUSTER_TAG, expectConsoleError, hydrated } from "./fixtures.ts";
import { endCampaignSoon, expectFieldError, expectNotice, localDateTime, screenshot, uniqueSuffix } from "./quest-helpers.ts";
import { APP_URL, jobWait } from "./urls.ts";
import { chainRpc, expect, localRpcUrl, signInWithWallet, walletTest } from "./wallet-helpers.ts";

/**
 * Token rewards end to end, on the app's local chain: an owner funds a project by a deposit from
 * their wallet, escrows a token raffle, an "everyone" split and a first-completers reward into a
 * campaign; two members complete it; the owner ends the campaign early; the worker freezes the
 * raffle's entrants, draws it from the next block and pays every pool from escrow, the rest back
 * to the treasury. The winner sees the tokens on Balance and in Rewards and withdraws part to
 * their wallet; the other sees "Not won" and checks the draw on its Verify page.
 */
const test = walletTest;
test.use({ bypassCSP: true });
// A long journey (deposit, escrow, payout, withdrawal, the raffle checked in the page and by the
// terminal command): on a busy 2-core machine it has taken over three minutes.
test.describe.configure({ timeout: 300_000 });

const HUNDRED_ETH = "0x56BC75E2D63100000";
const poolRow = (page: Page, reward: string) => page.getByRole("row").filter({ hasText: reward });

async function mint(rpc: string, token: Address, to: Address, amount: string) {
  const transport = http(rpc);
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  const hash = await wallet.writeContract({ address: token, abi: questTokenAbi, functionName: "mint", args: [to, parseEther(amount)] });
  await createPublicClient({ chain: anvil, transport }).waitForTransactionReceipt({ hash });
}

const tokenBalance = (rpc: string, token: Address, account: Address) =>
  createPublicClient({ chain: anvil, transport: http(rpc) }).readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [account] });

/** A second member in a browser of their own, signed in with a wallet of their own. */
async function walletMember(browser: Browser): Promise<{ page: Page; wallet: TestWallet }> {
  const context = await browser.newContext({ baseURL: APP_URL, bypassCSP: true, colorScheme: "dark" });
  const page = await context.newPage();
  await stubReownCloud(page, { appOrigin: APP_URL, reachable: true });
  const wallet = await installTestWallet(page);
  await signInWithWallet(page, wallet);
  return { page, wallet };
}

async function completeTask(page: Page, campaignUrl: string, title: string) {
  await page.goto(campaignUrl);
  await page.getByRole("link", { name: `Start: ${title}` }).click();
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("+10 XP")).toBeVisible();
}

test(
  "an owner funds a project by deposit and escrows token rewards; members are paid from escrow, withdraw, and check the raffle",
  CLUSTER_TAG,
  async ({ page: owner, wallet, browser }) => {
    // Refused forms answer 400, which the browser logs.
    expectConsoleError(/status of 400/);
    await signInWithWallet(owner, wallet);
    const rpc = await localRpcUrl(owner);
    await chainRpc(rpc, "anvil_setBalance", [wallet.address, HUNDRED_ETH]);

    const slug = `token-lab-${uniqueSuffix()}`;
    await owner.goto("/projects/new");
    await owner.getByLabel("Name", { exact: true }).fill(`Token Lab ${slug.slice(10)}`);
    await owner.getByLabel("Address").fill(slug);
    await owner.getByRole("button", { name: "Create project" }).click();
    await expect(owner).toHaveURL(`/projects/${slug}`);

    await test.step("the owner deposits 100 QUEST from their wallet into the project's treasury", async () => {
      await owner.getByRole("main").getByRole("link", { name: "Rewards", exact: true }).click();
      await expect(owner).toHaveURL(`/projects/${slug}/rewards`);
      await expect(owner.getByText("The treasury is empty")).toBeVisible();
      const { token } = await treasuryFacts(owner);
      await mint(rpc, token, wallet.address, "500");
      await owner.reload();
      await owner.getByLabel("Deposit amount (QUEST)").fill("100");
      await owner.getByRole("button", { name: "Deposit", exact: true }).click();
      await expect(owner.locator("[data-tx=confirmed]")).toContainText("Deposit 100 QUEST (step 2 of 2)");
      await chainRpc(rpc, "evm_mine");
      await expect(async () => {
        await owner.reload();
        await expect(owner.getByRole("list", { name: "Treasury balances" })).toContainText("100 QUEST", { timeout: 1_000 });
      }).toPass({ timeout: jobWait(20_000) });
      (globalThis as { questToken?: Address }).questToken = token;
    });

    const campaignName = "Token Sprint";
    await owner.goto(`/projects/${slug}/campaigns/new`);
    await owner.getByLabel("Name", { exact: true }).fill(campaignName);
    await owner.getByLabel("Starts").fill(localDateTime(-60));
    await owner.getByLabel("Ends").fill(localDateTime(24 * 60));
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create campaign" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: campaignName })).toBeVisible();
    const campaignUrl = new URL(owner.url()).pathname;
    const taskTitle = "Visit the token docs";
    await owner.getByRole("link", { name: "Add task" }).first().click();
    await owner.getByLabel("Title", { exact: true }).fill(taskTitle);
    await owner.getByLabel("Type").selectOption("visit_link");
    await owner.getByLabel("XP", { exact: true }).fill("10");
    await owner.getByLabel("Link to visit").fill("https://example.com/tokens");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: taskTitle })).toBeVisible();

    await test.step("token rewards are escrowed from the treasury; more than it holds is refused in words", async () => {
      const create = async (distribution: string, fields: Record<string, string>) => {
        await owner.goto(`${campaignUrl}/rewards/new`);
        await owner.getByRole("radio", { name: "Tokens from the treasury" }).check();
        await expect(owner.getByText(/The treasury holds \d+ QUEST/)).toBeVisible();
        await owner.getByRole("radio", { name: new RegExp(`^${distribution}`) }).check();
        for (const [label, value] of Object.entries(fields)) await owner.getByLabel(label, { exact: true }).fill(value);
        await owner.getByRole("button", { name: "Create reward" }).click();
      };
      await create("Raffle", { Winners: "1", "QUEST per winner": "500" });
      await expectFieldError(
        owner,
        "QUEST per winner",
        "The project's treasury holds 100 QUEST, not the 500 QUEST this needs: fund it on the project's Rewards page first.",
      );
      await owner.getByLabel("QUEST per winner", { exact: true }).fill("30");
      await owner.getByRole("button", { name: "Create reward" }).click();
      await expectNotice(owner, "Reward created");
      await create("Everyone", { "QUEST to split": "40" });
      await expectNotice(owner, "Reward created");
      await create("First completers", { Winners: "3", "QUEST per winner": "5" });
      await expectNotice(owner, "Reward created");
      const raffle = owner.getByRole("article", { name: "Raffle reward" });
      await expect(raffle).toContainText("30 QUEST each");
      await expect(raffle).toContainText(/Commitment published before the draw: 0x[0-9a-f]{64}/);
      await expect(owner.getByText("You are on this project's team: its rewards go to other members, never to the team.")).toBeVisible();
      // A live campaign's token rewards can be raised, never lowered or deleted: no Delete, and why.
      await owner.goto(campaignUrl);
      await hydrated(owner);
      await expect(owner.getByText("This campaign is live: its token rewards can be raised, but not lowered or deleted.")).toBeVisible();
      await expect(owner.getByRole("button", { name: "Delete the First completers reward" })).toHaveCount(0);
      await owner.goto(`/projects/${slug}/rewards`);
      // Tokens by their symbol and chain, not their internal id.
      await expect(owner.getByRole("list", { name: "Treasury balances" })).toHaveText(/^QUEST on Questline Local\s*15 QUEST$/);
      await expect(owner.getByText("QUEST:31337")).toHaveCount(0);
      await expect(poolRow(owner, "30 QUEST each")).toContainText("Live");
      await owner.setViewportSize({ width: 375, height: 800 });
      await owner.emulateMedia({ colorScheme: "dark" });
      await screenshot(owner, "token-rewards-project-375-dark");
      await owner.emulateMedia({ colorScheme: "light" });
      await owner.setViewportSize({ width: 1280, height: 800 });
      await screenshot(owner, "token-rewards-project-desktop");
    });

    const first = await walletMember(browser);
    const second = await walletMember(browser);
    await test.step("two members complete the campaign and are in the running", async () => {
      await completeTask(first.page, campaignUrl, taskTitle);
      await completeTask(second.page, campaignUrl, taskTitle);
      await first.page.goto("/rewards?status=pending");
      const running = first.page.getByRole("list", { name: "Your rewards" }).getByRole("listitem");
      await expect(running).toHaveCount(3);
      // Each with what the member stands to get, in the pool's unit.
      await expect(running.filter({ hasText: "Raffle" })).toContainText("You completed every task: 30 QUEST each for the 1 winner drawn at random.");
      await expect(running.filter({ hasText: "First completers" })).toContainText("You completed every task: 5 QUEST each for the first 3 members to finish.");
      await expect(running.filter({ hasText: "Everyone" })).toContainText(
        "You completed every task: 40 QUEST split equally among the members who complete every task: 20 QUEST each among the 2 so far.",
      );
    });

    await test.step("the owner ends the campaign; the worker draws the raffle from a later block and pays every pool", async () => {
      await endCampaignSoon(owner, campaignUrl);
      await expect(async () => {
        await owner.goto(`/projects/${slug}/rewards`);
        await expect(owner.getByRole("cell").getByText("Paid", { exact: true })).toHaveCount(3, { timeout: 1_000 });
      }).toPass({ timeout: jobWait(30_000), intervals: [1_000] });
      await expect(poolRow(owner, "30 QUEST each")).toContainText("30 QUEST");
      await expect(poolRow(owner, "5 QUEST each")).toContainText(/10 QUEST\s*2 members\s*5 QUEST/);
      await expect(owner.getByRole("list", { name: "Treasury balances" })).toContainText("20 QUEST");
      await screenshot(owner, "token-rewards-project-paid");
    });

    // Who won the raffle: the one whose Rewards list says so.
    await first.page.goto("/rewards?status=won");
    const firstWon = (await first.page.getByText("You won 30 QUEST in the draw.").count()) > 0;
    const [winner, loser] = firstWon ? [first, second] : [second, first];

    await test.step("the winner sees the tokens on Balance and in Rewards, and withdraws part to their wallet", async () => {
      const page = winner.page;
      await page.goto("/rewards?status=won");
      await expect(page.getByText("You won 30 QUEST in the draw.")).toBeVisible();
      await expect(page.getByText("You got 20 QUEST, your share.")).toBeVisible();
      await expect(page.getByText(/You got 5 QUEST: you finished #[12]\./)).toBeVisible();
      await screenshot(page, "token-rewards-won-dark");
      await page.goto("/balance");
      await expect(
        page
          .locator("dl > div", { has: page.getByText("Available", { exact: true }) })
          .locator("dd")
          .first(),
      ).toHaveText("55 QUEST");
      await expect(page.getByRole("row", { name: /Reward \+30 QUEST/ })).toBeVisible();
      await page.getByLabel("Withdrawal amount (QUEST)").fill("12");
      await page.getByRole("button", { name: "Withdraw", exact: true }).click();
      await expect(page.getByText("Withdrawal requested: it is on its way.")).toBeVisible();
      await expect(page.locator("[data-withdrawal]").first()).toHaveAttribute("data-status", "sent", { timeout: 30_000 });
      await chainRpc(rpc, "evm_mine");
      const token = (globalThis as { questToken?: Address }).questToken!;
      await expect.poll(() => tokenBalance(rpc, token, winner.wallet.address), { timeout: 30_000 }).toBe(parseEther("12"));
    });

    await test.step("the other member sees Not won, and the draw checks out on its Verify page", async () => {
      const page = loser.page;
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto("/rewards");
      await expect(page.getByText("Drawn: you entered and were not drawn this time.")).toBeVisible();
      await expect(page.getByText("You got 20 QUEST, your share.")).toBeVisible();
      await screenshot(page, "token-rewards-list-375-dark");
      await page.getByRole("link", { name: "Verify the draw" }).click();
      await expect(page).toHaveURL(/\/rewards\/raffles\//);
      await expect(page.getByText("This draw checks out")).toBeVisible({ timeout: 15_000 });
      await expect(page.getByText(/The revealed secret matches the commitment/)).toBeVisible();
      await expect(page.getByText(/^Failed: /)).toHaveCount(0);
      await expect(page.getByText(/^The 2 entrants listed match the entrant-list hash/)).toBeVisible();
      // The terminal check names this app, and runs as shown (the local chain's node from the environment).
      const poolId = new URL(page.url()).pathname.split("/").at(-1)!;
      const command = await page.getByTestId("verify-command").textContent();
      expect(command).toBe(`npm run verify-raffle -- ${poolId} --app ${APP_URL}`);
      const run = spawnSync("npm", command!.split(" ").slice(1), { env: { ...process.env, LOCAL_CHAIN_RPC_URL: rpc }, encoding: "utf8" });
      expect(run.stdout).toContain("✓");
      expect(run.status).toBe(0);
      // Listed under an id of this draw's own, which the page tells the member is theirs.
      await expect(page.getByText("Your entrant id")).toBeVisible();
      await expect(page.getByRole("list", { name: "Entrants in draw order" }).getByText("You", { exact: true })).toBeVisible();
      await screenshot(page, "token-rewards-verify-375-dark");
    });

    await owner.setViewportSize({ width: 375, height: 800 });
    await owner.goto(`/projects/${slug}/rewards`);
    await screenshot(owner, "token-rewards-project-375");
  },
);
