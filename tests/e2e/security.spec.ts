import { browserIssues, CLUSTER_TAG, expect, SAME_ORIGIN, test } from "./fixtures.ts";
import { uniqueSuffix } from "./quest-helpers.ts";

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

test("signing out ends the session", CLUSTER_TAG, async ({ page, signIn }) => {
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

test(
  "visitor pages may be kept a few seconds by shared caches and revalidated by ETag; a member's page is never kept",
  CLUSTER_TAG,
  async ({ page, request, signIn }) => {
    const first = await request.get("/leaderboard");
    const headers = first.headers();
    expect(headers["cache-control"]).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=50");
    expect(headers["vary"]).toMatch(/cookie/i);
    expect(headers["etag"]).toMatch(/^W\/"[\w-]+"$/);
    // Compressed when the client asks (this one does); otherwise sent whole, its length known.
    expect(headers["content-encoding"]).toMatch(/^(br|gzip)$/);
    const plain = await request.get("/leaderboard", { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers()["content-length"])).toBe((await plain.body()).length);
    // Another render of the same board (a new CSP nonce) has the same tag, and a cache holding it is told so.
    expect((await request.get("/leaderboard")).headers()["etag"]).toBe(headers["etag"]);
    const revalidated = await request.get("/leaderboard", { headers: { "If-None-Match": headers["etag"]! } });
    expect(revalidated.status()).toBe(304);
    expect(await revalidated.body()).toHaveLength(0);
    // The kept page's scripts carry the nonce of the policy kept with it.
    expect(revalidated.headers()["content-security-policy"]).toBeUndefined();

    // Not a visitor page: revalidated each time, no tag.
    const login = await request.get("/login");
    expect(login.headers()["cache-control"]).toBe("private, no-cache");
    expect(login.headers()["etag"]).toBeUndefined();

    await signIn(page);
    const mine = await page.request.get("/leaderboard");
    expect(mine.status()).toBe(200);
    expect(mine.headers()["cache-control"]).toBe("private, no-store");
    expect(mine.headers()["etag"]).toBeUndefined();
    expect((await page.request.get("/leaderboard", { headers: { "If-None-Match": headers["etag"]! } })).status()).toBe(200);
  },
);

test(
  "Welcome reads nothing, so visitors without cookies share one render: each gets the bytes a render of theirs gives, with their own nonce",
  CLUSTER_TAG,
  async ({ request, page }) => {
    const plain = { "Accept-Encoding": "identity" };
    const nonceOf = (headers: Record<string, string>) => /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")![1]!;
    const [first, second] = [await request.get("/", { headers: plain }), await request.get("/", { headers: plain })];
    // A cookie that names nothing of ours sends the visitor through a full render of the same page.
    const rendered = await request.get("/", { headers: { ...plain, Cookie: "unrelated=1" } });
    expect(rendered.headers()["cache-control"]).toBe("private, no-cache");
    const full = (await rendered.text()).replaceAll(nonceOf(rendered.headers()), "NONCE");
    for (const answer of [first, second]) {
      const nonce = nonceOf(answer.headers());
      const body = await answer.text();
      expect(body.split(nonce).length - 1, "the nonce is in every script and in the page's data").toBeGreaterThan(2);
      expect(body.replaceAll(nonce, "NONCE")).toBe(full);
      expect(Number(answer.headers()["content-length"])).toBe(Buffer.byteLength(body));
      expect(answer.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=50");
      expect(answer.headers()["etag"]).toBe(rendered.headers()["etag"]);
    }
    expect(nonceOf(first.headers())).not.toBe(nonceOf(second.headers()));
    expect((await request.get("/", { headers: { "If-None-Match": first.headers()["etag"]! } })).status()).toBe(304);

    // In a browser it runs under its policy and comes alive.
    const issues = await browserIssues(page);
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(issues).toEqual([]);
  },
);

test(
  "a visitor page rendered before for the same data is answered from that render, and a change to the data shows at once",
  CLUSTER_TAG,
  async ({ page, request, signIn }) => {
    const suffix = uniqueSuffix();
    await signIn(page);
    await page.goto("/projects/new");
    await page.getByLabel("Name", { exact: true }).fill(`Kept Renders ${suffix}`);
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page).toHaveURL(`/projects/kept-renders-${suffix}`);
    await page.goto(`/projects/kept-renders-${suffix}/tasks/new`);
    await page.getByLabel("Title", { exact: true }).fill("Read the launch post");
    await page.getByLabel("Type").selectOption("visit_link");
    await page.getByLabel("Link to visit").fill("https://example.com/post");
    await page.getByLabel("Published").check();
    await page.getByRole("button", { name: "Create task" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Read the launch post" })).toBeVisible();
    const taskUrl = new URL(page.url()).pathname;

    const plain = { "Accept-Encoding": "identity" };
    const nonceOf = (headers: Record<string, string>) => /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")![1]!;
    /** Two visitors in turn: the first is the page's first render for this data, the second gets it again with its own nonce. */
    const twoVisits = async () => {
      const [first, second] = [await request.get(taskUrl, { headers: plain }), await request.get(taskUrl, { headers: plain })];
      const [one, two] = [nonceOf(first.headers()), nonceOf(second.headers())];
      expect(one).not.toBe(two);
      const body = await second.text();
      expect(body.replaceAll(two, one)).toBe(await first.text());
      expect(Number(second.headers()["content-length"])).toBe(Buffer.byteLength(body));
      expect(second.headers()["etag"]).toBe(first.headers()["etag"]);
      return { body, etag: first.headers()["etag"] };
    };
    const before = await twoVisits();
    expect(before.body).toContain("Read the launch post");

    await page.goto(`${taskUrl}/edit`);
    await page.getByLabel("Title", { exact: true }).fill("Read the season 5 post");
    await page.getByRole("button", { name: "Save task" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Read the season 5 post" })).toBeVisible();

    const after = await twoVisits();
    expect(after.body).toContain("Read the season 5 post");
    expect(after.body).not.toContain("Read the launch post");
    expect(after.etag).not.toBe(before.etag);
  },
);

test("the build's files are served with their caching: hashed assets for a year, the favicon for an hour", async ({ request, page }) => {
  const favicon = await request.get("/favicon.svg");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(favicon.headers()["cache-control"]).toBe("public, max-age=3600");

  await page.goto("/");
  const asset = await page.locator('link[rel="modulepreload"]').first().getAttribute("href");
  expect(asset).toMatch(/^\/assets\//);
  const hashed = await request.get(asset!);
  expect(hashed.status()).toBe(200);
  expect(hashed.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // A page's path is not a file: the page answers, not a static 404.
  expect((await request.get("/leaderboard")).status()).toBe(200);
  expect((await request.get("/assets/gone-0000.js")).status()).toBe(404);
});
