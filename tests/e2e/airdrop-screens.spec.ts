import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import type { Page } from "@playwright/test";
import { completeTask, depositForProject, standingOf, treasuryFacts, walletMember } from "./airdrop-helpers.ts";
import { expect, expectConsoleError, pageWidth, test } from "./fixtures.ts";
import { expectFieldError, expectNotice, localDateTime, screenshot, uniqueSuffix } from "./quest-helpers.ts";
import { chainRpc, localRpcUrl } from "./wallet-helpers.ts";
import { jobWait } from "./urls.ts";

/**
 * The airdrop screens end to end: an owner funds a project's treasury (a vault deposit with the
 * project's reference, sent from a dev account in Node), creates an airdrop (refused first, field
 * by field, with nothing saved) and adds a task to it; a member finds it on Airdrop among the live
 * airdrops to join, completes the task and sees their points and rank on its page and its board;
 * a member with a wallet does too. The owner ends it early: the worker freezes it, and the page
 * shows each member's share (the one without a wallet finds it went back to the project) and the
 * allocation's downloads.
 */

async function darkMode(page: Page) {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.context().addCookies([{ name: "appearance", value: "dark", url: new URL(page.url()).origin }]);
  await page.reload();
  await expect(page.locator("html")).toHaveClass("dark");
}

test("an owner runs an airdrop; members join it from Airdrop, earn points, see their rank, then their frozen share", async ({
  page,
  newPage,
  signIn,
  uniqueEmail,
  browser,
}) => {
  test.setTimeout(240_000);
  // The refused form answers 400, which the browser logs.
  expectConsoleError(/status of 400/);
  const suffix = uniqueSuffix();
  const projectName = `Drop Lab ${suffix}`;
  const projectSlug = `drop-lab-${suffix}`;
  const airdropName = `Season One ${suffix}`;
  const airdropUrl = `/projects/${projectSlug}/airdrops/season-one-${suffix}`;
  const taskTitle = "Read the airdrop rules";
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));

  await test.step("the owner creates a project and funds its treasury with 1,000 QUEST", async () => {
    await owner.goto("/projects/new");
    await owner.getByLabel("Name", { exact: true }).fill(projectName);
    await owner.getByRole("button", { name: "Create project" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}`);
    await owner.goto(`/projects/${projectSlug}/rewards`);
    await depositForProject(await localRpcUrl(owner), await treasuryFacts(owner), "1000");
    await expect(async () => {
      await owner.reload();
      await expect(owner.getByRole("list", { name: "Treasury balances" })).toContainText("1,000 QUEST", { timeout: 1_000 });
    }).toPass({ timeout: jobWait(20_000) });
  });

  await test.step("a bad airdrop is refused field by field, and nothing is saved", async () => {
    await owner.goto(`/projects/${projectSlug}`);
    await owner.getByRole("link", { name: "New airdrop" }).click();
    await expect(owner).toHaveTitle(/New airdrop/);
    await owner.getByLabel("Name", { exact: true }).fill(airdropName);
    await expect(owner.getByLabel("Address")).toHaveValue(`season-one-${suffix}`);
    await owner.getByLabel("Description").fill("Complete its tasks to earn points; 500 QUEST are shared by points when it ends.");
    await expect(owner.getByLabel("Token")).toHaveValue("QUEST:31337");
    await expect(owner.getByText("The treasury holds 1,000 QUEST.", { exact: false })).toBeVisible();
    await owner.getByLabel("Starts").fill(localDateTime(-60));
    await owner.getByLabel("Ends", { exact: true }).fill(localDateTime(-120));
    await owner.getByLabel("Claims close").fill(localDateTime(14 * 24 * 60));
    await owner.getByLabel("Published").check();
    await screenshot(owner, "airdrop-form");
    await owner.getByRole("button", { name: "Create airdrop" }).click();
    await expectFieldError(owner, "Ends", "The end comes after the start");
    await expectFieldError(owner, /^Total/, /^Enter the total/);
    await expect(owner.getByLabel("Name", { exact: true })).toHaveValue(airdropName);
    await screenshot(owner, "airdrop-form-refused");
    await owner.goto(`/projects/${projectSlug}/airdrops`);
    await expect(owner.getByText("No airdrops yet")).toBeVisible();
  });

  await test.step("the owner creates the airdrop and adds a task to it from its page", async () => {
    await owner.getByRole("link", { name: "New airdrop" }).click();
    await owner.getByLabel("Name", { exact: true }).fill(airdropName);
    await owner.getByLabel("Starts").fill(localDateTime(-60));
    await owner.getByLabel("Ends", { exact: true }).fill(localDateTime(7 * 24 * 60));
    await owner.getByLabel("Claims close").fill(localDateTime(14 * 24 * 60));
    await owner.getByLabel(/^Total/).fill("500");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create airdrop" }).click();
    await expectNotice(owner, "Airdrop created");
    await expect(owner).toHaveURL(airdropUrl);
    await expect(owner.getByRole("heading", { level: 1, name: airdropName })).toBeVisible();
    await expect(owner.getByRole("main").getByText("Live", { exact: true })).toBeVisible();
    await expect(owner.getByRole("main").getByText("500 QUEST", { exact: true })).toBeVisible();

    await owner.goto(`/projects/${projectSlug}`);
    await expect(owner.getByRole("region", { name: "Airdrops" }).getByRole("link", { name: airdropName })).toBeVisible();
    await owner.getByRole("link", { name: "All airdrops" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}/airdrops`);
    await screenshot(owner, "airdrop-project-index");
    await owner.getByRole("link", { name: airdropName }).click();
    await owner.getByRole("link", { name: "Add task" }).first().click();
    await expect(owner.getByLabel("Airdrop")).toHaveValue(/.+/);
    await expect(owner.getByLabel("Campaign")).toHaveValue("");
    await owner.getByLabel("Title", { exact: true }).fill(taskTitle);
    await owner.getByLabel("Type").selectOption("visit_link");
    await owner.getByLabel("XP", { exact: true }).fill("25");
    await owner.getByLabel("Link to visit").fill("https://example.com/airdrop-rules");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: taskTitle })).toBeVisible();
    await expect(owner.getByRole("link", { name: airdropName })).toBeVisible();

    await owner.goto(airdropUrl);
    const tasks = owner.getByRole("region", { name: "Tasks" }).getByRole("listitem");
    await expect(tasks).toHaveCount(1);
    await expect(tasks.first()).toContainText("25 XP");
    await screenshot(owner, "airdrop-show-owner");
  });

  await test.step("a member finds it among the live airdrops to join, completes its task and sees their points and rank", async () => {
    await member.goto("/dashboard");
    await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Airdrop" }).click();
    await expect(member).toHaveURL("/airdrop");
    await expect(member).toHaveTitle(/^Airdrop/);
    await expect(member.getByText("No airdrops of yours yet")).toBeVisible();
    const toJoin = member.getByRole("list", { name: "Live airdrops to join" });
    await toJoin.getByRole("link", { name: airdropName }).click();
    await expect(member).toHaveURL(airdropUrl);
    const standing = standingOf(member, "Your points and rank");
    await expect(standing).toContainText("No points yet: complete one of its tasks to join the board.");
    await expect(standing).toContainText("Link a wallet to claim");

    await completeTask(member, airdropUrl, taskTitle, 25);
    await member.goto(airdropUrl);
    await expect(standing.getByText("Points", { exact: true }).locator("xpath=..")).toContainText("25");
    await expect(standing.getByText("Rank", { exact: true }).locator("xpath=..")).toContainText("#1");
    await screenshot(member, "airdrop-show-member");
    await darkMode(member);
    await screenshot(member, "airdrop-show-member-dark");

    await standing.getByRole("link", { name: "See the leaderboard" }).click();
    await expect(member).toHaveURL(`${airdropUrl}/leaderboard`);
    const board = member.getByRole("list", { name: "Leaderboard" });
    await expect(board.getByRole("listitem").filter({ hasText: "(you)" })).toContainText("#1");
    await expect(board.getByRole("listitem").filter({ hasText: "(you)" })).toContainText("25 points");
    await screenshot(member, "airdrop-leaderboard-dark");
  });

  await test.step("Airdrop lists it as eligible with the member's points and rank, on a phone, light and dark", async () => {
    await member.setViewportSize({ width: 375, height: 812 });
    await member.goto("/airdrop");
    const eligible = member.getByRole("list", { name: "Eligible" });
    await expect(eligible.getByRole("listitem")).toHaveCount(1);
    await expect(eligible).toContainText("25 points, rank #1");
    await expect(member.getByRole("list", { name: "Live airdrops to join" }).getByRole("link", { name: airdropName })).toHaveCount(0);
    expect(await pageWidth(member)).toBeLessThanOrEqual(375);
    await screenshot(member, "airdrop-mine-phone-dark");
    await member.emulateMedia({ colorScheme: "light" });
    await member.context().addCookies([{ name: "appearance", value: "light", url: new URL(member.url()).origin }]);
    await member.reload();
    await screenshot(member, "airdrop-mine-phone");
    await member.goto(airdropUrl);
    expect(await pageWidth(member)).toBeLessThanOrEqual(375);
    await screenshot(member, "airdrop-show-phone");
  });

  await test.step("a visitor sees the live airdrops with a way to sign in", async () => {
    const visitor = await newPage();
    await visitor.goto("/airdrop");
    await expect(visitor.getByText("Sign in to see your points, your shares and what you can claim.")).toBeVisible();
    await expect(visitor.getByRole("list", { name: "Live airdrops to join" }).getByRole("link", { name: airdropName })).toBeVisible();
    await screenshot(visitor, "airdrop-visitor");
  });

  let holder: Page | null = null;
  let holderAddress = "";
  await test.step("a member with a wallet earns the same points, later: rank 2", async () => {
    const { page, wallet } = await walletMember(browser);
    holder = page;
    holderAddress = wallet.address.toLowerCase();
    await completeTask(page, airdropUrl, taskTitle, 25);
    await page.goto(airdropUrl);
    const standing = standingOf(page, "Your points and rank");
    await expect(standing.getByText("Rank", { exact: true }).locator("xpath=..")).toContainText("#2");
    await expect(standing).not.toContainText("Link a wallet to claim");
  });

  await test.step("the owner ends it early: its token and rule stay fixed, the worker freezes it, and it can no longer be edited", async () => {
    await owner.goto(`${airdropUrl}/edit`);
    await expect(owner.getByLabel("Token")).toBeDisabled();
    await expect(owner.getByLabel("Shared")).toBeDisabled();
    await owner.getByLabel("Ends", { exact: true }).fill(new Date(Date.now() + 1000).toISOString().slice(0, 19));
    await owner.getByRole("button", { name: "Save airdrop" }).click();
    await expectNotice(owner, "Airdrop saved");
    const allocation = owner.getByRole("region", { name: "Allocation" });
    await expect(async () => {
      await owner.reload();
      await expect(allocation).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: jobWait(20_000) });
    // Both have 25 points: 250 QUEST each; the share of the member without a wallet goes back.
    await expect(allocation).toContainText(/Members who can claim\s*1/);
    await expect(allocation).toContainText(/Claimable\s*250 QUEST/);
    await expect(allocation).toContainText(/Back to the project\s*250 QUEST/);
    await expect(owner.getByRole("link", { name: "Edit" })).toHaveCount(0);
    await expect(owner.getByRole("link", { name: "Add task" })).toHaveCount(0);
    await screenshot(owner, "airdrop-frozen-owner");

    const csv = await owner.request.get(`${airdropUrl}/allocation.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect((await csv.text()).trimEnd().split("\r\n")).toEqual([
      "rank,points,amount_base_units,amount,account,leaf",
      `2,25,250000000000000000000,250,${holderAddress},0`,
      "1,25,250000000000000000000,250,,",
    ]);
    const tree = await owner.request.get(`${airdropUrl}/tree.json`);
    expect(tree.status()).toBe(200);
    // OpenZeppelin's own format: anyone can load it with the library and check the root shown on the page.
    const loaded = StandardMerkleTree.load<[string, string, string]>(await tree.json());
    loaded.validate();
    expect([...loaded.entries()].map(([, [index, account, amount]]) => [index, account.toLowerCase(), amount])).toEqual([
      ["0", holderAddress, "250000000000000000000"],
    ]);
    // One leaf: the leaf is the root, proved by an empty proof.
    expect(loaded.getProof(0)).toEqual([]);
    await expect(allocation.getByText(loaded.root)).toBeVisible();

    await owner.goto(`${airdropUrl}/edit`);
    await expect(owner.getByText("This airdrop has ended")).toBeVisible();
    await expect(owner.getByRole("button", { name: "Save airdrop" })).toHaveCount(0);
  });

  await test.step("each member sees their frozen share: paid to the wallet, or gone back to the project without one", async () => {
    await member.goto(airdropUrl);
    const share = standingOf(member, "Your share");
    await expect(share).toContainText(/Amount\s*250 QUEST/);
    await expect(share).toContainText("No wallet was linked at the freeze: your share went back to the project.");
    await screenshot(member, "airdrop-frozen-member-phone");
    await member.goto("/airdrop");
    await expect(member.getByRole("list", { name: "Missed" })).toContainText(
      "No wallet was linked at the freeze: your share (250 QUEST) went back to the project.",
    );

    const page = holder!;
    await page.goto(airdropUrl);
    const held = standingOf(page, "Your share");
    await expect(held).toContainText(/Amount\s*250 QUEST/);
    await expect(held).toContainText(/Paid to/);
    // The round is funded and opened by the worker on its own: claims are open, or about to be.
    await expect(held).toContainText(/Claims open once its round is funded and opened|Claim it until/);
    await screenshot(page, "airdrop-frozen-holder");
    // Each of the round's steps waits for its confirmations: blocks are mined until claims open, so
    // no round transaction is left to mine blocks under the specs that follow (they count confirmations).
    const rpc = await localRpcUrl(page);
    await expect(async () => {
      await chainRpc(rpc, "evm_mine");
      await page.reload();
      await expect(standingOf(page, "Your share")).toContainText("Claim it until", { timeout: 1_000 });
    }).toPass({ timeout: jobWait(60_000) });
    await darkMode(page);
    await page.goto("/airdrop");
    await expect(page.getByRole("region", { name: "Claimable" })).toContainText("250 QUEST");
    await screenshot(page, "airdrop-mine-holder-dark");
    await page.context().close();
  });
});
