import { expect, test } from "./fixtures.ts";
import { connectAccount, fakeAccount, PROVIDER_LABELS, serveAvatars, shownHandle, socialFakes, uniqueNumber } from "./social-helpers.ts";

/**
 * Settings › Connections through the real redirect flow: the Connect button posts to the page,
 * the browser goes to the provider's authorize endpoint (a fake on 127.0.0.1), comes back to the
 * app's callback, and better-auth links the account. Also: one social account per member, an
 * account refused in words, and proving an X account by a posted code.
 */

const PROVIDERS = ["x", "youtube", "tiktok", "instagram"] as const;

test.beforeEach(async ({ context }) => {
  await serveAvatars(context);
});

test("a member connects X, YouTube, TikTok and Instagram, sees each account, and disconnects them", async ({ page, signIn }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.goto("/settings/connections");
  await expect(page.getByRole("heading", { name: "Connections" })).toBeVisible();
  for (const provider of PROVIDERS) {
    await expect(page.getByRole("link", { name: new RegExp(`^${PROVIDER_LABELS[provider]}\\s*Not connected`) })).toBeVisible();
  }

  for (const provider of PROVIDERS) {
    const label = PROVIDER_LABELS[provider];
    const account = fakeAccount(provider, "Ada");
    await test.step(`${label}: connect, see the account, disconnect`, async () => {
      await page.goto("/settings/connections");
      await page.getByRole("link", { name: new RegExp(`^${label}\\b`) }).click();
      await expect(page).toHaveURL(`/settings/connections/${provider}`);
      await expect(page.getByRole("button", { name: `Connect ${label}`, exact: true })).toBeVisible();

      await connectAccount(page, provider, account);
      await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${label} connected`);
      await expect(page.getByText(account.name, { exact: true })).toBeVisible();
      await expect(page.getByText("Working", { exact: true })).toBeVisible();
      await expect(page.getByText(/^Everything the tasks need/)).toBeVisible();
      // The provider's picture, loaded from its CDN (answered by serveAvatars).
      const avatar = page.locator(`img[src="${account.avatarUrl}"]`);
      await expect(avatar).toBeVisible();
      expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      await page.goto("/settings/connections");
      await expect(page.getByRole("link", { name: new RegExp(`^${label}\\b`) })).toContainText(shownHandle(provider, account));
      await expect(page.getByRole("link", { name: new RegExp(`^${label}\\b`) })).toContainText("Working");

      await page.goto(`/settings/connections/${provider}`);
      await page.getByRole("button", { name: "Disconnect" }).click();
      await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${label} disconnected`);
      await expect(page.getByTestId("connected-handle")).toHaveCount(0);
      await expect(page.getByRole("button", { name: `Connect ${label}`, exact: true })).toBeVisible();
    });
  }

  await page.goto("/settings/connections");
  for (const provider of PROVIDERS) {
    await expect(page.getByRole("link", { name: new RegExp(`^${PROVIDER_LABELS[provider]}\\s*Not connected`) })).toBeVisible();
  }
});

test("an X account connected to one member is refused to another, in words", async ({ page, newPage, signIn, uniqueEmail }) => {
  const shared = fakeAccount("x", "Shared");
  await signIn(page, uniqueEmail("first"));
  await connectAccount(page, "x", shared);

  const second = await newPage();
  await serveAvatars(second.context());
  await signIn(second, uniqueEmail("second"));
  await second.goto("/settings/connections/x");
  // The sybil guard is said before anyone tries.
  await expect(second.getByText(/One X account belongs to one member/)).toBeVisible();
  await socialFakes.nextAccount("x", shared);
  await second.getByRole("button", { name: "Connect X", exact: true }).click();
  await expect(second).toHaveURL(/\/settings\/connections\/x\?error=/);
  await expect(second.getByRole("alert")).toHaveText("This X account is already connected to another member. One account belongs to one member.");
  await expect(second.getByTestId("connected-handle")).toHaveCount(0);
  await second.goto("/settings/connections");
  await expect(second.getByRole("link", { name: /^X\s*Not connected/ })).toBeVisible();

  // The first member keeps it.
  await page.goto("/settings/connections/x");
  await expect(page.getByTestId("connected-handle")).toHaveText(`@${shared.handle}`);
});

test("a connection that comes back replayed or with a state nobody started lands on Connections with the reason in words", async ({ page, signIn }) => {
  await signIn(page);
  const account = fakeAccount("x", "Replay");
  const callback = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/auth/callback/x");
  await connectAccount(page, "x", account);
  const used = (await callback).url();

  const stale = "That connection could not be finished: it took too long, was already used, or was started in another tab. Nothing changed: connect again.";
  for (const url of [used, "/api/auth/callback/x?state=nobody-started-this&code=made-up"]) {
    await page.goto(url);
    await expect(page).toHaveURL((to) => to.pathname === "/settings/connections" && to.searchParams.has("error"));
    await expect(page.getByRole("heading", { name: "Connections" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(stale);
  }
  // Nothing changed: the account connected first is still the member's.
  await expect(page.getByRole("link", { name: /^X\b/ })).toContainText(shownHandle("x", account));
});

test("a personal Instagram account is refused with what to do instead", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/settings/connections/instagram");
  await expect(page.getByText(/Only Instagram professional accounts \(business or creator\) can connect/)).toBeVisible();
  await socialFakes.nextAccount("instagram", fakeAccount("instagram", "Personal", { accountType: "PERSONAL" }));
  await page.getByRole("button", { name: "Connect Instagram", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/connections\/instagram\?error=/);
  await expect(page.getByRole("alert")).toContainText("This is a personal Instagram account.");
  await expect(page.getByRole("alert")).toContainText("switch it to a professional account");
  await expect(page.getByTestId("connected-handle")).toHaveCount(0);
});

test("a member proves an X account by posting the code shown on Verify X account", async ({ page, signIn }) => {
  const who = fakeAccount("x", "Coder");
  await signIn(page);
  await page.goto("/settings/connections/x");
  await page.getByRole("link", { name: "Verify your X account with a post" }).click();
  await expect(page).toHaveURL("/tasks/verify-x");
  await expect(page.getByRole("heading", { level: 1, name: "Verify X account" })).toBeVisible();

  const text = (await page.getByTestId("verify-post-text").textContent())!.trim();
  expect(text, "the post carries a code").toMatch(/\bQL-[A-Z2-9]{8}\b/);
  // The member posts it from their account: X then serves the post, by its author.
  const postId = uniqueNumber();
  await socialFakes.x.addUsers({ id: who.id, username: who.handle, name: who.name, profileImageUrl: who.avatarUrl });
  await socialFakes.x.addPosts({ id: postId, authorId: who.id, text, createdAt: new Date().toISOString() });

  await page.getByLabel("Link of your post").fill(`https://x.com/${who.handle}/status/${postId}`);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL("/settings/connections/x");
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`X account @${who.handle} verified`);
  await expect(page.getByTestId("connected-handle")).toHaveText(`@${who.handle}`);
  await expect(page.getByText(/proven by a post carrying your code/)).toBeVisible();

  // The page now says it is done.
  await page.goto("/tasks/verify-x");
  await expect(page.getByText("Your X account is connected")).toBeVisible();
});
