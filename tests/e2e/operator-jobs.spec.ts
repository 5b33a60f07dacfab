import type { Page } from "@playwright/test";
import { CLUSTER_TAG, expect, expectConsoleError, pageWidth, test } from "./fixtures.ts";
import { screenshot } from "./quest-helpers.ts";
import { APP_URL, jobWait } from "./urls.ts";

/**
 * The operators' Jobs page on the e2e app (role `all`: its jobs run): every queue with its jobs
 * counted by state, the local chain's deposit scans and withdrawal runs completing; refused to a
 * member who is not an operator. Screenshots light, dark and 375 px wide.
 */

/** An operator of the e2e server (OPERATORS in tests/e2e/servers.ts) no other test signs in: a sign-in e-mail per address per 30 s. */
const OPERATOR_EMAIL = "auditor@example.com";

const queueCard = (page: Page, label: string) => page.locator("[data-queue]", { has: page.getByRole("heading", { name: label, exact: true }) });
const count = (page: Page, label: string, word: string) =>
  queueCard(page, label)
    .locator("dl > div", { has: page.getByText(word, { exact: true }) })
    .locator("dd");

async function noWiderThanWindow(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await pageWidth(page)).toBeLessThanOrEqual(width);
}

test("an operator sees every queue counted by state, the local chain's jobs completing, and no failure", CLUSTER_TAG, async ({ page, context, signIn }) => {
  await signIn(page, OPERATOR_EMAIL);
  await page.goto("/operator/withdrawals");
  await page.getByRole("navigation", { name: "Operator screens" }).getByRole("link", { name: "Jobs" }).click();
  await expect(page).toHaveURL("/operator/jobs");
  await expect(page).toHaveTitle(/^Jobs - /);
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();

  for (const label of ["Reward payouts", "Airdrop freeze", "Airdrop rounds", "Deposit scan", "Withdrawals", "Leaderboard windows", "Purge"])
    await expect(queueCard(page, label)).toBeVisible();
  await expect(queueCard(page, "Deposit scan")).toContainText("Reads a chain's vault for deposits and credits them once confirmed.");

  // The tickers send a deposit scan and a withdrawal run for chain 31337 every second; they complete.
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();
    expect(Number(await count(page, "Deposit scan", "completed").textContent())).toBeGreaterThan(0);
    expect(Number(await count(page, "Withdrawals", "completed").textContent())).toBeGreaterThan(0);
  }).toPass({ timeout: jobWait(20_000) });
  await expect(queueCard(page, "Withdrawals")).toContainText(/Last run completed/);
  await expect(count(page, "Purge", "failed")).toHaveText("0");
  await expect(page.getByText("No job has failed in the last six hours.")).toBeVisible();
  await noWiderThanWindow(page);
  await screenshot(page, "operator-jobs-light");

  await context.addCookies([{ name: "appearance", value: "dark", url: APP_URL }]);
  await page.reload();
  await expect(page.locator("html")).toHaveClass("dark");
  await screenshot(page, "operator-jobs-dark");

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(queueCard(page, "Purge")).toBeVisible();
  await noWiderThanWindow(page);
  await screenshot(page, "operator-jobs-phone-dark");

  await context.addCookies([{ name: "appearance", value: "light", url: APP_URL }]);
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  await noWiderThanWindow(page);
  await screenshot(page, "operator-jobs-phone-light");
});

test("a member who is not an operator is refused the Jobs page", async ({ page, signIn }) => {
  expectConsoleError(/status of 403/);
  await signIn(page);
  const response = await page.goto("/operator/jobs");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.locator("[data-queue]")).toHaveCount(0);
});
