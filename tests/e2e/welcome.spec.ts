import { expect, pageWidth, test } from "./fixtures.ts";
import { screenshot } from "./quest-helpers.ts";

/** Welcome says what the product does today, lets visitors look around, and sets the appearance before signing in. */
test("Welcome names what exists and promises nothing missing, links visitors to browse, and switches appearance signed out", async ({ page }) => {
  await page.goto("/");
  const body = page.locator("body");
  for (const promise of [/token pools/i, /every task verified/i, /wallet you choose/i]) await expect(body).not.toContainText(promise);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Grow your community with quests and leaderboards.");
  // Airdrops and social tasks exist: Welcome names them.
  const features = page.getByRole("region", { name: "What you can do" });
  await expect(features.getByRole("heading", { level: 2 })).toHaveText(["Tasks and crusades", "Leaderboards", "XP and token rewards", "Airdrops"]);
  await expect(features).toContainText("X, YouTube, TikTok and Instagram");
  await expect(features).toContainText("claim their share on chain");

  const browse = page.getByRole("navigation", { name: "Browse" });
  await expect(browse.getByRole("link")).toHaveText(["Projects", "Campaigns", "Leaderboard"]);
  await browse.getByRole("link", { name: "Campaigns" }).click();
  await expect(page).toHaveURL("/campaigns");
  await expect(page.getByRole("heading", { level: 1, name: "Campaigns" })).toBeVisible();
  await page.goBack();

  const appearance = page.getByRole("radiogroup", { name: "Appearance" });
  await appearance.getByRole("radio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(appearance.getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
  await screenshot(page, "welcome-dark");
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await pageWidth(page), "no sideways scroll").toBeLessThanOrEqual(375);
  await screenshot(page, "welcome-phone-dark");
  await appearance.getByRole("radio", { name: "Light" }).click();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  await screenshot(page, "welcome-phone-light");
});
