import { clickBeforeScript, CLUSTER_TAG, expect, expectConsoleError, hydrated, pageWidth, test } from "./fixtures.ts";

test("every page has its title", CLUSTER_TAG, async ({ page, signIn }) => {
  await page.goto("/");
  await expect(page).toHaveTitle("Questline");
  await page.goto("/login");
  await expect(page).toHaveTitle("Sign in - Questline");

  await signIn(page);
  await page.goto("/dashboard");
  await expect(page).toHaveTitle("Dashboard - Questline");
  await page.goto("/settings/profile");
  await expect(page).toHaveTitle("Profile - Questline");
  await page.goto("/settings/password");
  await expect(page).toHaveTitle("Password - Questline");
  await page.goto("/settings/appearance");
  await expect(page).toHaveTitle("Appearance - Questline");
  await page.goto("/mint");
  await expect(page).toHaveTitle("Mint - Questline");
  await page.goto("/sale");
  await expect(page).toHaveTitle("Token sale - Questline");
  await page.goto("/balance");
  await expect(page).toHaveTitle("Balance - Questline");
});

test("an unknown address shows the 404 page", async ({ page }) => {
  expectConsoleError(/status of 404/);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found - Questline");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Questline" }).click();
  await expect(page).toHaveURL("/");
});

test.describe("on a 375 px wide phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the dashboard fits and the menu opens as a drawer", async ({ page, signIn }) => {
    // A long address with no place to break is the widest thing the dashboard shows.
    await signIn(page, `averyveryverylongaddresswithoutbreaks${Date.now()}@example.com`);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // The sidebar is hidden on phones; the drawer holds the navigation.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    const nav = drawer.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

    await nav.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL("/settings/profile");
    await expect(drawer).toBeHidden();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);

    // Welcome's header holds the name, the appearance switch and, for a member, Dashboard.
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
  });
});

test("the progress bar shows in #bbf451 while a navigation is pending", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/dashboard");
  const bar = page.getByRole("progressbar", { name: "Loading", includeHidden: true });
  await expect(bar).toHaveAttribute("data-state", "idle");

  // Hold the data request of the next navigation while the bar is looked at.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/settings/profile.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();

  await expect(bar).toHaveAttribute("data-state", "loading");
  await expect(bar).toHaveAttribute("aria-hidden", "false");
  await expect(bar).toHaveCSS("opacity", "1");
  await expect(bar.locator("div")).toHaveCSS("background-color", "rgb(187, 244, 81)");
  expect((await bar.boundingBox())?.y).toBe(0);

  release();
  await expect(page).toHaveURL("/settings/profile");
  await expect(bar).toHaveAttribute("data-state", "idle");
  await expect(bar.locator("div")).toHaveCount(0);
});

test("the keyboard's first stop skips the navigation to the page's content", async ({ page }) => {
  await page.goto("/leaderboard");
  await hydrated(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  // The next stop is in the page, past the twelve links of the navigation.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
});

test("the account menu and the phone drawer work from the keyboard", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/dashboard");
  const account = page.getByRole("button", { name: "Account menu" });
  await account.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Settings" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Settings" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Account menu" })).toBeHidden();
  await expect(account).toBeFocused();

  await page.setViewportSize({ width: 375, height: 740 });
  const open = page.getByRole("button", { name: "Open menu" });
  await open.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Leaderboard" })).toBeVisible();
  // The drawer is drawn in the browser: its icons carry their shapes there too.
  const icon = page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Leaderboard" }).locator("svg");
  await expect(icon.locator("path").first()).toBeAttached();
  expect(await icon.evaluate((svg) => svg.firstElementChild?.namespaceURI)).toBe("http://www.w3.org/2000/svg");
  expect(await icon.evaluate((svg) => (svg.firstElementChild as SVGGraphicsElement).getBBox().width)).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();
  await expect(open).toBeFocused();
});

test("on a phone, Open menu tapped before the page's script has taken over opens the menu page, which closes back to the page", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await clickBeforeScript(page, "/leaderboard?window=7d", "Open menu");
  await expect(page).toHaveURL("/menu?from=%2Fleaderboard%3Fwindow%3D7d");
  await hydrated(page);
  await expect(page).toHaveTitle("Menu - Questline");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" })).toBeVisible();
  await page.getByRole("link", { name: "Close menu" }).click();
  await expect(page).toHaveURL("/leaderboard?window=7d");

  await page.goto("/menu");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
  await expect(page).toHaveURL("/campaigns");
  expect(await pageWidth(page)).toBeLessThanOrEqual(375);
});

test("the account menu clicked before the page's script has taken over opens the menu page, with Settings and Sign out", async ({ page, signIn }) => {
  const email = await signIn(page);
  await clickBeforeScript(page, "/dashboard", "Account menu");
  await expect(page).toHaveURL("/menu?from=%2Fdashboard");
  await hydrated(page);
  const account = page.getByRole("region", { name: "Account" });
  await expect(account.getByText(email)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeVisible();
  await account.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await page.goto("/menu");
  await expect(page.getByRole("region", { name: "Account" })).toHaveCount(0);
});

test("public pages carry a description, their canonical address and Open Graph tags", async ({ page }) => {
  for (const path of ["/", "/leaderboard", "/projects", "/campaigns", "/tasks"]) {
    await page.goto(path);
    const head = page.locator("head");
    const canonical = new URL(path, page.url()).href;
    await expect(head.locator('link[rel="canonical"]'), path).toHaveAttribute("href", canonical);
    await expect(head.locator('meta[property="og:url"]'), path).toHaveAttribute("content", canonical);
    const description = await head.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length, `${path}: a description`).toBeGreaterThan(20);
    expect(description!.length, `${path}: at most what search results show`).toBeLessThanOrEqual(160);
    await expect(head.locator('meta[property="og:description"]'), path).toHaveAttribute("content", description!);
    await expect(head.locator('meta[property="og:title"]'), path).toHaveAttribute("content", /\S/);
    await expect(head.locator('meta[property="og:type"]'), path).toHaveAttribute("content", "website");
  }
});
