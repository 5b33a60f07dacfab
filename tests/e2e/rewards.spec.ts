import type { Locator, Page } from "@playwright/test";
import { CLUSTER_TAG, expect, expectConsoleError, hydrated, SAME_ORIGIN, test } from "./fixtures.ts";
import { endCampaignSoon, expectFieldError, expectNotice, localDateTime, screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";
import { jobWait } from "./urls.ts";

/**
 * XP reward pools end to end: an owner creates, edits and deletes a campaign's pools (the form
 * refusing bad input field by field), a member cannot reach those forms, and a campaign that ends
 * during the test has its pools paid by the server's worker (REWARDS_EVERY_MS in
 * playwright.config.ts): the cards say what was paid, the member sees their own grant and their
 * XP includes it. Also: the tasks of a campaign that is not live offer no Start.
 */

const rewards = (page: Page) => page.getByRole("region", { name: "Rewards" });
const tasks = (page: Page) => page.getByRole("region", { name: "Tasks" }).getByRole("listitem");
/** A reward pool's card, by its distribution's title ("First completers", "Leaderboard"…). */
const poolCard = (page: Page, title: string): Locator => rewards(page).getByRole("article", { name: `${title} reward` });

async function createProject(page: Page, name: string) {
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const slug = await page.getByLabel("Address").inputValue();
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(`/projects/${slug}`);
  return slug;
}

/** Creates a published campaign through the form; returns its page's address. */
async function createCampaign(page: Page, projectSlug: string, { name, startsAt, endsAt }: { name: string; startsAt: string; endsAt: string }) {
  await page.goto(`/projects/${projectSlug}/campaigns/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Starts").fill(startsAt);
  await page.getByLabel("Ends").fill(endsAt);
  await page.getByLabel("Published").check();
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByText("Campaign created")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** Adds a published "visit a link" task (checked at once, no review) to the campaign on the page. */
async function addVisitTask(page: Page, campaignUrl: string, title: string, xp: number) {
  await page.goto(campaignUrl);
  await page.getByRole("link", { name: "Add task" }).first().click();
  await expect(page.getByLabel("Campaign")).toHaveValue(/.+/);
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Type").selectOption("visit_link");
  await page.getByLabel("XP", { exact: true }).fill(String(xp));
  await page.getByLabel("Link to visit").fill("https://example.com/rewards");
  await page.getByLabel("Published").check();
  await page.getByRole("button", { name: "Create task" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  return taskIdOf(page);
}

/** Fills the reward form on the page (fields left out stay as they are) and submits it. */
async function submitReward(
  page: Page,
  {
    distribution,
    winners,
    amount,
    total,
    rankAmounts,
    submit,
  }: { distribution?: string; winners?: string; amount?: string; total?: string; rankAmounts?: string; submit: string },
) {
  if (distribution) await page.getByRole("radio", { name: new RegExp(`^${distribution}`) }).check();
  if (winners !== undefined) await page.getByLabel(/^(Winners|Ranks paid)$/).fill(winners);
  if (amount !== undefined) await page.getByLabel("XP per winner", { exact: true }).fill(amount);
  if (total !== undefined) await page.getByLabel("XP to split", { exact: true }).fill(total);
  if (rankAmounts !== undefined) await page.getByLabel("XP by rank", { exact: true }).fill(rankAmounts);
  await page.getByRole("button", { name: submit }).click();
}

test("an owner creates, edits and deletes reward pools; a member cannot", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(120_000);
  // Refused forms answer 400 and the member's forbidden pages 403, which the browser logs.
  expectConsoleError(/status of (400|403)/);

  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));

  const projectSlug = await createProject(owner, `Reward Lab ${uniqueSuffix()}`);
  // Scheduled: it opens tomorrow, so its pools can still change and its task cannot be done yet.
  const campaignUrl = await createCampaign(owner, projectSlug, { name: "Prize Week", startsAt: localDateTime(24 * 60), endsAt: localDateTime(8 * 24 * 60) });
  const taskTitle = "Read the prize rules";
  const taskId = await addVisitTask(owner, campaignUrl, taskTitle, 40);
  const newRewardUrl = `${campaignUrl}/rewards/new`;

  await test.step("a campaign that has not started shows its task without Start, as the task page and the engine say", async () => {
    await member.goto(campaignUrl);
    await expect(member.getByText("Scheduled", { exact: true })).toBeVisible();
    await expect(tasks(member).filter({ hasText: taskTitle })).toContainText("Campaign not started");
    await expect(member.getByRole("link", { name: `Start: ${taskTitle}` })).toHaveCount(0);
    await expect(member.getByText(/This campaign opens .+: its tasks can be done from then\./)).toBeVisible();
    await member.getByRole("link", { name: taskTitle }).click();
    await expect(member.getByText("Its campaign has not started yet")).toBeVisible();
    await expect(member.getByRole("button", { name: "Verify" })).toHaveCount(0);
    const forced = await member.request.post(`/tasks/${taskId}`, { form: { intent: "visit" }, headers: SAME_ORIGIN });
    expect(forced.status()).toBe(200);
  });

  await test.step("the campaign starts with no reward pools", async () => {
    await owner.goto(campaignUrl);
    await expect(rewards(owner).getByText("No reward pools")).toBeVisible();
    await rewards(owner).getByRole("link", { name: "Create reward" }).click();
    await expect(owner).toHaveURL(newRewardUrl);
    await expect(owner.getByRole("heading", { level: 1, name: "Create reward" })).toBeVisible();
    await expect(owner.getByRole("radio", { name: /^First completers/ })).toBeChecked();
  });

  await test.step("bad input shows each field's error beside it and saves nothing", async () => {
    await submitReward(owner, { submit: "Create reward" });
    await expectFieldError(owner, "Winners", "Enter how many members win");
    await expectFieldError(owner, "XP per winner", "Enter the XP each winner gets");

    await submitReward(owner, { winners: "0", amount: "-50", submit: "Create reward" });
    await expectFieldError(owner, "Winners", "Enter how many members win: at least 1");
    await expectFieldError(owner, "XP per winner", "Enter the XP each winner gets: a whole number, like 100");
    // What was typed stays.
    await expect(owner.getByLabel("Winners", { exact: true })).toHaveValue("0");
    await expect(owner.getByLabel("XP per winner", { exact: true })).toHaveValue("-50");

    await submitReward(owner, { winners: "20000", amount: "0", submit: "Create reward" });
    await expectFieldError(owner, "Winners", "Enter how many members win: at most 10,000");
    await expectFieldError(owner, "XP per winner", "Enter the XP each winner gets: at least 1");

    await submitReward(owner, { distribution: "Raffle", winners: "5", amount: "2000000", submit: "Create reward" });
    await expectFieldError(owner, "XP per winner", "Enter the XP each winner gets: at most 1,000,000");
    await expect(owner.getByLabel("Winners", { exact: true })).not.toHaveAttribute("aria-invalid", "true");

    await submitReward(owner, { distribution: "Leaderboard", winners: "2", rankAmounts: "500, 300, 200", submit: "Create reward" });
    await expectFieldError(owner, "XP by rank", "List at most 2 amounts: one per winning rank");
    await submitReward(owner, { rankAmounts: "100, 300", submit: "Create reward" });
    await expectFieldError(owner, "XP by rank", "A better rank gets at least as much as the ranks after it");
    await submitReward(owner, { rankAmounts: "500, 0", submit: "Create reward" });
    await expectFieldError(owner, "XP by rank", "Each rank's XP must be at least 1 (separate the amounts with commas)");
    await submitReward(owner, { rankAmounts: "five hundred", submit: "Create reward" });
    await expectFieldError(owner, "XP by rank", "Each rank's XP must be a whole number, like 100 (separate the amounts with commas)");

    await submitReward(owner, { distribution: "Everyone", total: "0", submit: "Create reward" });
    await expectFieldError(owner, "XP to split", "Enter the XP to split: at least 1");
    await submitReward(owner, { total: "1.5", submit: "Create reward" });
    await expectFieldError(owner, "XP to split", "Enter the XP to split: a whole number, like 100");

    await owner.getByRole("link", { name: "Cancel" }).click();
    await expect(owner).toHaveURL(campaignUrl);
    await expect(rewards(owner).getByText("No reward pools")).toBeVisible();
  });

  await test.step("valid input creates pools, described in words on the campaign page", async () => {
    await rewards(owner).getByRole("link", { name: "Create reward" }).click();
    await submitReward(owner, { distribution: "First completers", winners: "3", amount: "1,000", submit: "Create reward" });
    await expect(owner).toHaveURL(campaignUrl);
    await expectNotice(owner, "Reward created");
    const first = poolCard(owner, "First completers");
    await expect(first).toContainText("1,000 XP each");
    await expect(first).toContainText("For the first 3 members to complete every task.");
    await expect(first).toContainText("Paid in XP when the campaign ends.");

    await rewards(owner).getByRole("link", { name: "Create reward" }).click();
    await submitReward(owner, { distribution: "Leaderboard", winners: "10", rankAmounts: "500, 300\n100", submit: "Create reward" });
    await expectNotice(owner, "Reward created");
    const ranking = poolCard(owner, "Leaderboard");
    await expect(ranking).toContainText("Up to 500 XP");
    await expect(ranking).toContainText("For the top 10 of the campaign leaderboard at its end.");
    await expect(ranking.getByRole("listitem")).toHaveText(["#1500 XP", "#2300 XP", "#3–10100 XP each"]);
    await expect(rewards(owner).getByRole("article")).toHaveCount(2);
  });

  await test.step("edit changes a pool: its form starts from what was saved and refuses bad input too", async () => {
    await owner.getByRole("link", { name: "Edit the First completers reward" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: "Edit reward" })).toBeVisible();
    await expect(owner.getByLabel("Winners", { exact: true })).toHaveValue("3");
    await expect(owner.getByLabel("XP per winner", { exact: true })).toHaveValue("1000");
    await submitReward(owner, { distribution: "Everyone", total: "", submit: "Save reward" });
    await expectFieldError(owner, "XP to split", "Enter the XP to split");
    await submitReward(owner, { total: "900", submit: "Save reward" });
    await expect(owner).toHaveURL(campaignUrl);
    await expect(owner.getByText("Reward saved")).toBeVisible();
    await expect(poolCard(owner, "First completers")).toHaveCount(0);
    const everyone = poolCard(owner, "Everyone");
    await expect(everyone).toContainText("900 XP split");
    await expect(everyone).toContainText("Split equally among every member who completes every task.");
    await screenshot(owner, "rewards-campaign-pools");
  });

  await test.step("a member sees the pools but cannot reach create or edit", async () => {
    await member.goto(campaignUrl);
    await expect(poolCard(member, "Everyone")).toContainText("900 XP split");
    await expect(poolCard(member, "Leaderboard")).toContainText("Up to 500 XP");
    await expect(rewards(member).getByRole("link")).toHaveCount(0);
    await expect(rewards(member).getByRole("button")).toHaveCount(0);

    const editUrl = await owner.getByRole("link", { name: "Edit the Everyone reward" }).getAttribute("href");
    expect(editUrl).toMatch(/\/rewards\/[^/]+\/edit$/);
    for (const url of [newRewardUrl, editUrl!]) {
      const response = await member.goto(url);
      expect(response?.status(), url).toBe(403);
      await expect(member.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      await expect(member.getByLabel("Winners", { exact: true })).toHaveCount(0);
    }
    const forced = await member.request.post(editUrl!, { form: { distribution: "everyone", total: "1" }, headers: SAME_ORIGIN, maxRedirects: 0 });
    expect(forced.status()).toBe(403);
    await owner.reload();
    await expect(poolCard(owner, "Everyone")).toContainText("900 XP split");
  });

  await test.step("delete removes a pool, with a toast", async () => {
    // The page was just reloaded: a click before its script has taken over the button opens nothing.
    await hydrated(owner);
    await owner.getByRole("button", { name: "Delete the Everyone reward" }).click();
    const dialog = owner.getByRole("dialog");
    await expect(dialog).toContainText("Delete this reward?");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(owner.getByText("Reward deleted")).toBeVisible();
    await expect(poolCard(owner, "Everyone")).toHaveCount(0);
    await expect(rewards(owner).getByRole("article")).toHaveCount(1);
    await owner.reload();
    await expect(poolCard(owner, "Everyone")).toHaveCount(0);
    await expect(poolCard(owner, "Leaderboard")).toBeVisible();
  });
});

test("the worker pays a campaign's pools when it ends; the member sees their grant and XP", CLUSTER_TAG, async ({ page, newPage, signIn, uniqueEmail }) => {
  // The owner ends the campaign early once the member has finished; the worker then pays within seconds.
  test.setTimeout(120_000);

  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const memberName = `Paid Member ${uniqueSuffix()}`;
  const named = await member.request.post("/settings/leaderboard", { form: { visible: "on", displayName: memberName }, headers: SAME_ORIGIN });
  expect(named.status()).toBe(200);

  const projectSlug = await createProject(owner, `Payout Lab ${uniqueSuffix()}`);
  const campaignUrl = await createCampaign(owner, projectSlug, { name: "Payout Sprint", startsAt: localDateTime(-60), endsAt: localDateTime(24 * 60) });
  const taskTitle = "Visit the payout page";
  await addVisitTask(owner, campaignUrl, taskTitle, 50);

  await test.step("the owner adds a first-completers pool and an everyone pool", async () => {
    await owner.goto(`${campaignUrl}/rewards/new`);
    await submitReward(owner, { distribution: "First completers", winners: "2", amount: "250", submit: "Create reward" });
    await expectNotice(owner, "Reward created");
    await owner.goto(`${campaignUrl}/rewards/new`);
    await submitReward(owner, { distribution: "Everyone", total: "1000", submit: "Create reward" });
    await expectNotice(owner, "Reward created");
    await expect(poolCard(owner, "First completers")).toContainText("Paid in XP when the campaign ends.");
    await expect(poolCard(owner, "Everyone")).toContainText("Paid in XP when the campaign ends.");
  });

  await test.step("the member completes the task while the campaign is live", async () => {
    await member.goto(campaignUrl);
    await expect(member.getByText("Live", { exact: true })).toBeVisible();
    await member.getByRole("link", { name: `Start: ${taskTitle}` }).click();
    await member.getByRole("button", { name: "Verify" }).click();
    await expect(member.getByText("+50 XP")).toBeVisible();
  });

  await test.step("with a member in, the campaign stays published and started, and its form says why", async () => {
    // Refused forms answer 400, which the browser logs.
    expectConsoleError(/status of 400/);
    await owner.goto(`${campaignUrl}/edit`);
    await expect(owner.getByText(/^Members have entered this campaign: it stays published, its start cannot move into the future/)).toBeVisible();
    await expect(owner.getByLabel("Published")).toBeChecked();
    await expect(owner.getByLabel("Published")).toBeDisabled();
    await owner.getByLabel("Starts").fill(localDateTime(60));
    await owner.getByRole("button", { name: "Save campaign" }).click();
    await expectFieldError(owner, "Starts", "Members have entered this campaign: its start cannot move into the future.");
    await screenshot(owner, "rewards-campaign-entered");
  });

  await test.step("the owner ends the campaign early; the worker pays: the cards say so", async () => {
    await endCampaignSoon(owner, campaignUrl);
    await expect(async () => {
      await owner.goto(campaignUrl);
      await expect(poolCard(owner, "First completers").getByText("Paid", { exact: true })).toBeVisible({ timeout: 1_000 });
      await expect(poolCard(owner, "Everyone").getByText("Paid", { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: jobWait(60_000), intervals: [1_000, 2_000] });
    await expect(owner.getByText("Ended", { exact: true })).toBeVisible();
    await expect(poolCard(owner, "First completers")).toContainText("Paid 1 member: 250 XP in all.");
    await expect(poolCard(owner, "Everyone")).toContainText("Paid 1 member: 1,000 XP in all.");
    await expect(poolCard(owner, "Everyone")).toContainText("Split equally among every member who completed every task.");
    // A paid pool is final: nothing to edit, delete or add, and the form says why.
    await expect(rewards(owner).getByRole("link")).toHaveCount(0);
    await expect(rewards(owner).getByRole("button")).toHaveCount(0);
    await owner.goto(`${campaignUrl}/rewards/new`);
    await expect(owner.getByText("This campaign has ended", { exact: true })).toBeVisible();
    await expect(owner.getByLabel("Winners", { exact: true })).toHaveCount(0);
  });

  await test.step("an ended campaign's tasks offer no Start, as the task page and the engine say", async () => {
    // The owner never did the task: before the end it offered them a Start.
    await owner.goto(campaignUrl);
    await expect(owner.getByText("This campaign has ended: its tasks can no longer be done.")).toBeVisible();
    await expect(tasks(owner).filter({ hasText: taskTitle })).toContainText("Campaign ended");
    await expect(owner.getByRole("link", { name: `Start: ${taskTitle}` })).toHaveCount(0);
    await owner.getByRole("link", { name: taskTitle }).click();
    await expect(owner.getByText("Its campaign has ended")).toBeVisible();
    await expect(owner.getByRole("button", { name: "Verify" })).toHaveCount(0);
    const forced = await owner.request.post(new URL(owner.url()).pathname, { form: { intent: "visit" }, headers: SAME_ORIGIN });
    expect(forced.status()).toBe(200);
  });

  await test.step("the member sees their own grants, and their XP includes them", async () => {
    await member.goto(campaignUrl);
    await expect(tasks(member).filter({ hasText: taskTitle })).toContainText("Done");
    await expect(poolCard(member, "First completers").getByRole("status")).toHaveText("You got 250 XP: you finished #1.");
    await expect(poolCard(member, "Everyone").getByRole("status")).toHaveText("You got 1,000 XP, your share.");
    await screenshot(member, "rewards-campaign-paid");

    // 50 for the task, 250 and 1,000 from the pools.
    await member.goto("/dashboard");
    await expect(member.getByText("1,300 XP earned")).toBeVisible();
    await member.goto("/leaderboard");
    await expect(member.getByRole("list", { name: "Leaderboard" }).getByRole("listitem").filter({ hasText: memberName })).toHaveText(/1,300 XP/);
    // Reward XP is not on the campaign's board: it shows the standing at the end.
    await member.goto(`${campaignUrl}/leaderboard`);
    await expect(member.getByRole("list", { name: "Leaderboard" }).getByRole("listitem").filter({ hasText: memberName })).toHaveText(/50 XP/);
  });
});
