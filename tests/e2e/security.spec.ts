import { expect, SAME_ORIGIN, test } from "./fixtures.ts";

test("a state-changing request from another site is refused", async ({ request }) => {
  const foreign = await request.post("/login", {
    form: { intent: "send", email: "someone@example.com" },
    headers: { Origin: "https://evil.example" },
  });
  expect(foreign.status()).toBe(403);

  const withoutOrigin = await request.post("/login", { form: { intent: "send", email: "someone@example.com" } });
  expect(withoutOrigin.status()).toBe(403);

  const crossSite = await request.post("/logout", { headers: { ...SAME_ORIGIN, "Sec-Fetch-Site": "cross-site" } });
  expect(crossSite.status()).toBe(403);
});

test("the health check answers", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  expect(await response.json()).toEqual({ status: "ok" });
});

test("pages carry the security headers", async ({ request }) => {
  const response = await request.get("/login");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-powered-by"]).toBeUndefined();
});

test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context, signIn }) => {
  await signIn(page);
  const session = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
  expect(session, "a session cookie").toBeDefined();
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  // Served over http here, so not Secure (the site runs on https in production and it is then).
  expect(session!.secure).toBe(false);
  // Scripts on the page cannot read it.
  await page.goto("/dashboard");
  expect(await page.evaluate(() => document.cookie)).not.toContain("session_token");
});

test("signing out ends the session", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();

  await page.goto("/dashboard");
  await expect(page).toHaveURL("/login?redirectTo=%2Fdashboard");
  expect((await page.context().cookies()).some((c) => c.name.endsWith("session_token"))).toBe(false);
});
