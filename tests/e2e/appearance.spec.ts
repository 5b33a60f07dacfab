import { expect, expectConsoleError, test } from "./fixtures.ts";

const DAY_SECONDS = 24 * 60 * 60;

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/settings/appearance");
});

test("Dark is kept in local storage and a cookie, and drawn by the server", async ({ page, context }) => {
  const html = page.locator("html");
  await page.getByRole("radio", { name: "Dark" }).click();
  await expect(html).toHaveClass("dark");
  await expect(page.getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");

  expect(await page.evaluate(() => localStorage.getItem("appearance"))).toBe("dark");
  const cookie = (await context.cookies()).find((c) => c.name === "appearance");
  expect(cookie).toMatchObject({ value: "dark", path: "/", sameSite: "Lax" });
  const days = (cookie!.expires - Date.now() / 1000) / DAY_SECONDS;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThanOrEqual(365.01);

  // The server reads the cookie, so the HTML arrives dark: no flash of light before scripts run.
  const response = await page.request.get("/settings/appearance");
  expect(await response.text()).toMatch(/<html[^>]*\sclass="dark"/);
  await page.reload();
  await expect(html).toHaveClass("dark");

  await page.getByRole("radio", { name: "Light" }).click();
  await expect(html).not.toHaveClass("dark");
  expect(await page.evaluate(() => localStorage.getItem("appearance"))).toBe("light");
  await page.reload();
  await expect(html).not.toHaveClass("dark");
  expect(await (await page.request.get("/settings/appearance")).text()).not.toMatch(/<html[^>]*\sclass="dark"/);
});

test("System follows the device's colour scheme live", async ({ page }) => {
  const html = page.locator("html");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("radio", { name: "System" }).click();
  await expect(html).not.toHaveClass("dark");

  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html).toHaveClass("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).not.toHaveClass("dark");
});

test("System is applied by the page itself, before any script of the app runs", async ({ page }) => {
  expectConsoleError(/Failed to load resource/);
  await page.getByRole("radio", { name: "System" }).click();
  await page.emulateMedia({ colorScheme: "dark" });
  // Without the app's scripts, only the inline script in <head> can set the class.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.reload();
  await expect(page.locator("html")).toHaveClass("dark");
});
