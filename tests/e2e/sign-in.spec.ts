import { clickBeforeScript, CLUSTER_TAG, expect, expectConsoleError, hydrated, SAME_ORIGIN, test, type Inbox, typeCode } from "./fixtures.ts";
import type { Page } from "@playwright/test";

/** Fills the e-mail step of the sign-in form and waits for the "check your inbox" step. */
async function askForCode(page: Page, email: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Continue with e-mail" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
}

async function codeFor(inbox: Inbox, email: string) {
  return inbox.codeFrom(await inbox.latestMail(email));
}

async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
}

test("signs in by typing the code from the e-mail", CLUSTER_TAG, async ({ page, inbox, uniqueEmail }) => {
  const email = uniqueEmail();
  await page.goto("/login");
  await askForCode(page, email);

  const mail = await inbox.latestMail(email);
  expect(mail.subject).toMatch(/^Your Questline sign-in code: \d{6}$/);
  await typeCode(page, inbox.codeFrom(mail));

  await expectSignedIn(page);
  await expect(page.getByText(email).first()).toBeVisible();
});

test("signs in by pasting the code into the first box", async ({ page, inbox, uniqueEmail }) => {
  const email = uniqueEmail();
  await page.goto("/login");
  await askForCode(page, email);
  const code = await codeFor(inbox, email);

  const submitted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/login.data");
  const first = page.getByLabel("Digit 1");
  await first.focus();
  await first.evaluate(
    (input, text) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData("text/plain", text);
      input.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
    },
    ` ${code.slice(0, 3)}-${code.slice(3)} `,
  );

  // The pasted digits filled all six boxes and the form sent itself with the whole code.
  expect(new URLSearchParams((await submitted).postData() ?? "").get("code")).toBe(code);
  await expectSignedIn(page);
});

test("signs in by the link in the e-mail, which works once", CLUSTER_TAG, async ({ page, inbox, uniqueEmail, newPage }) => {
  const email = uniqueEmail();
  await page.goto("/login");
  await askForCode(page, email);
  const link = inbox.linkFrom(await inbox.latestMail(email));

  await page.goto(link);
  await expectSignedIn(page);

  // The same link in another browser does not sign in a second time.
  const other = await newPage();
  await other.goto(link);
  await expect(other).toHaveURL(/\/login\?/);
  await expect(other.getByRole("alert")).toContainText("expired or was already used");
  await other.goto("/dashboard");
  await expect(other).toHaveURL("/login?redirectTo=%2Fdashboard");
});

test("signs in from the modal on the Welcome page", async ({ page, inbox, uniqueEmail }) => {
  const email = uniqueEmail();
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign in" });
  await expect(dialog).toBeVisible();

  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByRole("button", { name: "Continue with e-mail" }).click();
  await expect(dialog.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await typeCode(page, await codeFor(inbox, email));

  await expectSignedIn(page);
});

test("a click on Sign in before the page's script has taken over leads to the sign-in page, and back after signing in", async ({
  page,
  inbox,
  uniqueEmail,
}) => {
  await clickBeforeScript(page, "/leaderboard", "Sign in");
  await expect(page).toHaveURL("/login?redirectTo=%2Fleaderboard");

  const email = uniqueEmail();
  await hydrated(page);
  await askForCode(page, email);
  await typeCode(page, await codeFor(inbox, email));
  await expect(page).toHaveURL("/leaderboard");
});

test("Get started on Welcome, clicked before its script has taken over, leads to the sign-in page", async ({ page }) => {
  await clickBeforeScript(page, "/", "Get started");
  await expect(page).toHaveURL("/login?redirectTo=%2Fdashboard");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("the sign-in page works without JavaScript: an e-mail, another e-mail, a wrong code, the code, and back where the member was", async ({
  newPage,
  inbox,
  uniqueEmail,
}) => {
  expectConsoleError(/status of 400/);
  const page = await newPage({ javaScriptEnabled: false });
  await page.goto("/login?redirectTo=%2Fleaderboard");
  const send = page.getByRole("button", { name: "Continue with e-mail" });
  await page.getByLabel("E-mail").fill("not an address");
  await send.click();
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("not an address");

  const first = uniqueEmail();
  await page.getByLabel("E-mail").fill(first);
  await send.click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await page.getByRole("button", { name: "Use another e-mail" }).click();
  await expect(page).toHaveURL("/login?redirectTo=%2Fleaderboard");

  const email = uniqueEmail();
  await page.getByLabel("E-mail").fill(email);
  await send.click();
  await expect(page.getByText(email)).toBeVisible();
  const code = await codeFor(inbox, email);
  // Without the script the boxes do not move along: the whole code goes in the first.
  const wrong = [...code].map((digit) => String((Number(digit) + 1) % 10)).join("");
  await page.getByLabel("Digit 1").pressSequentially(wrong);
  await page.getByRole("button", { name: "Verify code" }).click();
  await expect(page.getByRole("alert")).toHaveText("That code is not right. Check the e-mail and try again.");

  await page.getByLabel("Digit 1").pressSequentially(code);
  await page.getByRole("button", { name: "Verify code" }).click();
  await expect(page).toHaveURL("/leaderboard");
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
});

test("without JavaScript, the password step opens from its button and answers a wrong password on the page", async ({ newPage, uniqueEmail }) => {
  expectConsoleError(/status of 400/);
  const page = await newPage({ javaScriptEnabled: false });
  await page.goto("/login?redirectTo=%2Fleaderboard");
  await page.getByRole("button", { name: "Sign in with a password instead" }).click();
  await expect(page).toHaveURL("/login?redirectTo=%2Fleaderboard&method=password");

  const email = uniqueEmail();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await expect(page.getByLabel("E-mail")).toHaveValue(email);

  await page.getByRole("button", { name: "E-mail me a link and a code instead" }).click();
  await expect(page.getByRole("button", { name: "Continue with e-mail" })).toBeVisible();
});

test("a new code waits 30 seconds on the form; better-auth's own sending endpoint is closed", CLUSTER_TAG, async ({ page, inbox, uniqueEmail }) => {
  expectConsoleError(/status of 429/);
  const email = uniqueEmail();
  await page.goto("/login");
  await askForCode(page, email);
  await inbox.latestMail(email);

  await page.getByRole("button", { name: "Send a new code" }).click();
  const message = page.getByRole("alert").filter({ hasText: /^Please try again after \d+ seconds$/ });
  await expect(message).toBeVisible();
  expectSecondsWithinCooldown(await message.textContent());
  // Still on the code step: the member can enter the code already sent.
  await expect(page.getByLabel("Digit 1")).toBeVisible();

  // The library's own sending endpoint is not reachable over HTTP (only the form sends).
  const response = await page.request.post("/api/auth/email-otp/send-verification-otp", {
    data: { email, type: "sign-in" },
    headers: SAME_ORIGIN,
  });
  expect(response.status()).toBe(404);

  // Mail is sent before the action answers, so anything sent would already be here.
  expect(await inbox.messages(email)).toHaveLength(1);
});

function expectSecondsWithinCooldown(text: string | null) {
  const seconds = Number(text?.match(/^Please try again after (\d+) seconds$/)?.[1]);
  expect(seconds, `"${text}"`).toBeGreaterThanOrEqual(1);
  expect(seconds, `"${text}"`).toBeLessThanOrEqual(30);
}

test("five wrong codes lock the code", CLUSTER_TAG, async ({ page, inbox, uniqueEmail }) => {
  expectConsoleError(/status of (400|403)/);
  const email = uniqueEmail();
  await page.goto("/login");
  await askForCode(page, email);
  const code = await codeFor(inbox, email);
  const wrong = [...code].map((digit) => String((Number(digit) + 1) % 10)).join("");
  const alert = page.getByRole("alert");

  for (let attempt = 1; attempt <= 5; attempt++) {
    await submitCode(page, wrong);
    await expect(alert).toHaveText("That code is not right. Check the e-mail and try again.");
  }
  await submitCode(page, code);
  await expect(alert).toHaveText("Too many wrong codes. This code no longer works: send a new one.");

  await expect(page).toHaveURL("/login");
  await page.goto("/dashboard");
  await expect(page).toHaveURL("/login?redirectTo=%2Fdashboard");
});

/** Types a code and waits for the server's answer to the submission it triggers. */
async function submitCode(page: Page, code: string) {
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/login"));
  await typeCode(page, code);
  await answered;
  await expect(page.getByLabel("Digit 1")).toBeEnabled();
}

test("brings the member back to the page they asked for", async ({ page, inbox, uniqueEmail }) => {
  await page.goto("/settings/password");
  await expect(page).toHaveURL("/login?redirectTo=%2Fsettings%2Fpassword");

  const email = uniqueEmail();
  await askForCode(page, email);
  await typeCode(page, await codeFor(inbox, email));

  await expect(page).toHaveURL("/settings/password");
  await expect(page.getByText("Set a password")).toBeVisible();
});

test("an incomplete code is refused on the code step", async ({ page, uniqueEmail }) => {
  expectConsoleError(/status of 400/);
  await page.goto("/login");
  await askForCode(page, uniqueEmail());

  await page.getByLabel("Digit 1").click();
  await page.keyboard.type("123");
  await page.getByRole("button", { name: "Verify code" }).click();

  await expect(page.getByRole("alert")).toHaveText("Enter the 6-digit code from the e-mail");
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
});
