import { createPublicClient, http, parseEther, type Address } from "viem";
import { anvil } from "viem/chains";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import { completeTask, depositForProject, standingOf, treasuryFacts, walletMember } from "./airdrop-helpers.ts";
import { CLUSTER_TAG, expect, pageWidth, test } from "./fixtures.ts";
import { expectNotice, localDateTime, screenshot, uniqueSuffix } from "./quest-helpers.ts";
import { chainRpc, localRpcUrl } from "./wallet-helpers.ts";
import { jobWait } from "./urls.ts";

/**
 * An airdrop claimed on chain, end to end on the app's local chain: an owner creates an airdrop
 * of 300 QUEST with two tasks; two members with wallets earn 30 and 20 points; the owner ends it;
 * the worker freezes it, funds its round from the vault and opens it on AirdropDistributor. One
 * member claims 180 QUEST in the browser with their wallet, sees the tokens arrive and the claim
 * marked; the other sees their 120 QUEST share. After the deadline (the chain's clock moved) the
 * owner sweeps the unclaimed 120 QUEST back to the project's treasury.
 */
test(
  "two members earn an airdrop's points; one claims on chain in the browser, and after the deadline the owner sweeps the rest",
  CLUSTER_TAG,
  async ({ page: owner, signIn, uniqueEmail, browser }) => {
    test.setTimeout(240_000);
    const suffix = uniqueSuffix();
    const projectSlug = `claim-lab-${suffix}`;
    const airdropName = `Claim Season ${suffix}`;
    const airdropUrl = `/projects/${projectSlug}/airdrops/claim-season-${suffix}`;
    const tasks = [
      { title: "Read the claim guide", xp: 20 },
      { title: "Visit the token page", xp: 10 },
    ];
    await signIn(owner, uniqueEmail("owner"));
    let rpc = "";
    let token: Address = "0x";

    await test.step("the owner funds the project's treasury and creates the airdrop with two tasks", async () => {
      await owner.goto("/projects/new");
      await owner.getByLabel("Name", { exact: true }).fill(`Claim Lab ${suffix}`);
      await owner.getByRole("button", { name: "Create project" }).click();
      await expect(owner).toHaveURL(`/projects/${projectSlug}`);
      await owner.goto(`/projects/${projectSlug}/rewards`);
      rpc = await localRpcUrl(owner);
      const facts = await treasuryFacts(owner);
      token = facts.token;
      await depositForProject(rpc, facts, "1000");
      await expect(async () => {
        await owner.reload();
        await expect(owner.getByRole("list", { name: "Treasury balances" })).toContainText("1,000 QUEST", { timeout: 1_000 });
      }).toPass({ timeout: jobWait(20_000) });

      await owner.goto(`/projects/${projectSlug}/airdrops/new`);
      await owner.getByLabel("Name", { exact: true }).fill(airdropName);
      await owner.getByLabel("Starts").fill(localDateTime(-60));
      // It runs for five minutes (the owner ends it earlier, below); claims close a day after (the chain's clock is moved past it later).
      await owner.getByLabel("Ends", { exact: true }).fill(localDateTime(5));
      await owner.getByLabel("Claims close").fill(localDateTime(24 * 60 + 6));
      await owner.getByLabel(/^Total/).fill("300");
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create airdrop" }).click();
      await expectNotice(owner, "Airdrop created");
      await expect(owner).toHaveURL(airdropUrl);
      for (const task of tasks) {
        await owner.goto(airdropUrl);
        await owner.getByRole("link", { name: "Add task" }).first().click();
        await owner.getByLabel("Title", { exact: true }).fill(task.title);
        await owner.getByLabel("Type").selectOption("visit_link");
        await owner.getByLabel("XP", { exact: true }).fill(String(task.xp));
        await owner.getByLabel("Link to visit").fill("https://example.com/claim-guide");
        await owner.getByLabel("Published").check();
        await owner.getByRole("button", { name: "Create task" }).click();
        await expect(owner.getByRole("heading", { level: 1, name: task.title })).toBeVisible();
      }
    });

    const first = await walletMember(browser);
    const second = await walletMember(browser);
    await test.step("two members with wallets earn 30 and 20 points", async () => {
      // Their wallets pay the network fee of a claim.
      for (const { wallet } of [first, second]) await chainRpc(rpc, "anvil_setBalance", [wallet.address, "0x56BC75E2D63100000"]);
      await completeTask(first.page, airdropUrl, tasks[0]!.title, 20);
      await completeTask(first.page, airdropUrl, tasks[1]!.title, 10);
      await completeTask(second.page, airdropUrl, tasks[0]!.title, 20);
    });

    await test.step("the owner ends it; the worker freezes it and opens its round on chain", async () => {
      await owner.goto(`${airdropUrl}/edit`);
      await owner.getByLabel("Ends", { exact: true }).fill(new Date(Date.now() + 1000).toISOString().slice(0, 19));
      await owner.getByRole("button", { name: "Save airdrop" }).click();
      await expectNotice(owner, "Airdrop saved");
      const allocation = standingOf(owner, "Allocation");
      // The freeze, then the round's funding, approval and opening, each after its confirmation.
      await expect(async () => {
        await chainRpc(rpc, "evm_mine");
        await owner.reload();
        await expect(allocation.getByRole("region", { name: "Round on chain" })).toContainText(/Round \d+ opened in/, { timeout: 1_000 });
      }).toPass({ timeout: jobWait(60_000) });
      await expect(allocation).toContainText(/Claimable\s*300 QUEST/);
      await expect(allocation.getByRole("region", { name: "Round on chain" })).toContainText("After claims close");
      await screenshot(owner, "airdrop-round-open-owner");
    });

    const balanceOf = (account: Address) =>
      createPublicClient({ chain: anvil, transport: http(rpc) }).readContract({
        address: token,
        abi: questTokenAbi,
        functionName: "balanceOf",
        args: [account],
      });

    await test.step("the first member claims 180 QUEST with their wallet: the tokens arrive and the claim is marked", async () => {
      const { page, wallet } = first;
      const before = await balanceOf(wallet.address);
      await page.goto(airdropUrl);
      const share = standingOf(page, "Your share");
      await expect(share).toContainText(/Amount\s*180 QUEST/);
      await screenshot(page, "airdrop-claimable");
      await share.getByRole("button", { name: "Claim 180 QUEST" }).click();
      await expect(page.locator("[data-tx=confirmed]")).toContainText("Claim 180 QUEST");
      expect(await balanceOf(wallet.address)).toBe(before + parseEther("180"));
      // Claimed again before the page knows (the claim is recorded after its confirmations): refused
      // in words, for good: no "Try again", and the Claim button goes.
      await page.locator("[data-tx=confirmed]").getByRole("button", { name: "Done" }).click();
      await share.getByRole("button", { name: "Claim 180 QUEST" }).click();
      await expect(page.locator("[data-tx=failed]")).toContainText("This share was claimed already: the tokens went to its address.");
      await expect(page.locator("[data-tx=failed]").getByRole("button", { name: "Try again" })).toHaveCount(0);
      await expect(share.getByRole("button", { name: /^Claim/ })).toHaveCount(0);
      expect(await balanceOf(wallet.address)).toBe(before + parseEther("180"));
      // The claim is marked once the server has read its Claimed event from the chain, with its confirmations.
      await expect(async () => {
        await chainRpc(rpc, "evm_mine");
        await page.reload();
        await expect(standingOf(page, "Your share")).toContainText("Claimed", { timeout: 1_000 });
      }).toPass({ timeout: jobWait(20_000) });
      await expect(standingOf(page, "Your share").getByRole("button", { name: /^Claim/ })).toHaveCount(0);
      await screenshot(page, "airdrop-claimed");
      await page.goto("/airdrop");
      await expect(page.getByRole("list", { name: "Claimed" })).toContainText("180 QUEST");
    });

    await test.step("the second member sees their 120 QUEST share, claimable from Airdrop too", async () => {
      const { page } = second;
      await page.goto(airdropUrl);
      const share = standingOf(page, "Your share");
      await expect(share).toContainText(/Amount\s*120 QUEST/);
      await expect(share.getByRole("button", { name: "Claim 120 QUEST" })).toBeVisible();
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto("/airdrop");
      const claimable = page.getByRole("list", { name: "Claimable" });
      await expect(claimable.getByRole("button", { name: "Claim 120 QUEST" })).toBeVisible();
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, "airdrop-claimable-phone");
    });

    await test.step("after the deadline on chain, the owner sweeps the unclaimed 120 QUEST back to the treasury", async () => {
      const roundPanel = standingOf(owner, "Allocation").getByRole("region", { name: "Round on chain" });
      await owner.reload();
      await expect(roundPanel.getByRole("button", { name: "Sweep the rest back" })).toHaveCount(0);
      await chainRpc(rpc, "evm_increaseTime", [24 * 3600 + 10 * 60]);
      await chainRpc(rpc, "evm_mine");
      await owner.reload();
      await roundPanel.getByRole("button", { name: "Sweep the rest back" }).click();
      await expectNotice(owner, "The sweep is on its way");
      await expect(async () => {
        await chainRpc(rpc, "evm_mine");
        await owner.reload();
        await expect(roundPanel).toContainText("120 QUEST not claimed went back to the treasury.", { timeout: 1_000 });
      }).toPass({ timeout: jobWait(30_000) });
      await screenshot(owner, "airdrop-swept-owner");
      await owner.goto(`/projects/${projectSlug}/rewards`);
      // 1,000 funded, 300 escrowed, 180 claimed, 120 back.
      await expect(owner.getByRole("list", { name: "Treasury balances" })).toContainText("820 QUEST");
    });

    await first.page.context().close();
    await second.page.context().close();
  },
);
