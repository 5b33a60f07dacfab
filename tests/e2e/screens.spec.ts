import path from "node:path";
import type { Page } from "@playwright/test";
import { CLUSTER_TAG, expect, expectConsoleError, pageWidth, test } from "./fixtures.ts";
import { APP_URL } from "./urls.ts";

/**
 * Full-page screenshots of every screen, light and dark, desktop and phone, saved to
 * test-results/screenshots/ for a person to look at. Each one also checks that nothing sticks
 * out sideways.
 */

const DEVICES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;
const THEMES = ["light", "dark"] as const;

for (const [device, viewport] of Object.entries(DEVICES)) {
  for (const theme of THEMES) {
    test.describe(`${device}, ${theme}`, () => {
      test.use({ viewport, colorScheme: theme });

      // Against the cluster, every screen once (decision 049).
      test("screens", device === "desktop" && theme === "light" ? CLUSTER_TAG : {}, async ({ page, context, signIn, uniqueEmail }) => {
        expectConsoleError(/status of 404/); // the 404 page
        await context.addCookies([{ name: "appearance", value: theme, url: APP_URL }]);
        const shoot = async (name: string) => {
          if (theme === "dark") await expect(page.locator("html")).toHaveClass("dark");
          else await expect(page.locator("html")).not.toHaveClass(/dark/);
          const scrollWidth = await pageWidth(page);
          expect(scrollWidth, `${name} is no wider than the window`).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({
            path: path.join(test.info().project.outputDir, "screenshots", `${name}-${theme}-${device}.png`),
            fullPage: true,
            animations: "disabled",
          });
        };

        await page.goto("/");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await shoot("welcome");

        await page.goto("/login");
        await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
        await shoot("login");

        await page.getByLabel("E-mail").fill(uniqueEmail("screens"));
        await page.getByRole("button", { name: "Continue with e-mail" }).click();
        await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
        await shoot("check-inbox");

        await signIn(page);
        await openScreen(page, "/dashboard", /^Welcome, /);
        await shoot("dashboard");
        await openScreen(page, "/balance", "Balance");
        await expect(page.getByText("No transactions yet")).toBeVisible();
        await shoot("balance");
        await openScreen(page, "/settings/profile", "Settings");
        await shoot("settings-profile");
        await openScreen(page, "/settings/password", "Settings");
        await shoot("settings-password");
        await openScreen(page, "/settings/appearance", "Settings");
        await shoot("settings-appearance");

        await page.goto("/no-such-page");
        await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
        await shoot("404");
      });
    });
  }
}

async function openScreen(page: Page, url: string, heading: string | RegExp) {
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}
