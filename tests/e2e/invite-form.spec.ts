import { expect, expectConsoleError, hydrated, test } from "./fixtures.ts";
import { expectNotice, screenshot, uniqueSuffix } from "./quest-helpers.ts";

/**
 * The invite form sends the role it shows: the least powerful by default, kept after an invite,
 * and Owner only after a confirmation. A resend waits its cooldown, and the list says how long.
 */
test("the invite form keeps its role, asks before inviting an owner, and shows the resend cooldown", async ({ page, signIn, uniqueEmail }) => {
  // A refused resend answers 429, which the browser logs.
  expectConsoleError(/status of 429/);
  const suffix = uniqueSuffix();
  await signIn(page, uniqueEmail("owner"));
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(`Invite Lab ${suffix}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "Team & invites" }).click();

  const role = page.getByLabel("Role", { exact: true });
  await expect(role).toHaveValue("reviewer");
  await expect(page.getByText("Reviewers review the submissions")).toBeVisible();

  await test.step("an admin invite leaves the form on Admin, saying what an admin does", async () => {
    await role.selectOption("admin");
    await page.getByLabel("E-mail or wallet address").fill(`ada-${suffix}@example.com`);
    await page.getByRole("button", { name: "Invite" }).click();
    await expectNotice(page, `Invitation e-mailed to ada-${suffix}@example.com`);
    await expect(page.getByLabel("E-mail or wallet address")).toHaveValue("");
    await expect(role).toHaveValue("admin");
    await expect(page.getByText("Admins edit the project")).toBeVisible();

    await page.getByLabel("E-mail or wallet address").fill(`bo-${suffix}@example.com`);
    await page.getByRole("button", { name: "Invite" }).click();
    await expectNotice(page, `Invitation e-mailed to bo-${suffix}@example.com`);
    const list = page.getByRole("listitem").filter({ hasText: `bo-${suffix}@example.com` });
    await expect(list).toContainText("Admin · sent");
  });

  await test.step("inviting an owner asks first; cancelling sends nothing", async () => {
    await role.selectOption("owner");
    await page.getByLabel("E-mail or wallet address").fill(`cy-${suffix}@example.com`);
    await page.getByRole("button", { name: "Invite" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite as an owner?" });
    await expect(dialog).toBeVisible();
    await screenshot(page, "invite-owner-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("listitem").filter({ hasText: `cy-${suffix}@example.com` })).toHaveCount(0);

    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Invite as owner" }).click();
    await expectNotice(page, `Invitation e-mailed to cy-${suffix}@example.com`);
    await expect(page.getByRole("listitem").filter({ hasText: `cy-${suffix}@example.com` })).toContainText("Owner · sent");
  });

  await test.step("an invitation just sent cannot be resent yet, and says when it can", async () => {
    const row = page.getByRole("listitem").filter({ hasText: `ada-${suffix}@example.com` });
    await expect(row.getByRole("button", { name: "Resend" })).toBeDisabled();
    await expect(row).toContainText("Sent just now: it can be resent in 10 minutes.");
    // Forged past the disabled button: refused with the same words, nothing mailed.
    const forged = await page.evaluate(async () => {
      const id = document.querySelector("[id^=resend-wait-]")!.id.replace("resend-wait-", "");
      const response = await fetch(location.pathname, { method: "POST", body: new URLSearchParams({ intent: "resend", id }) });
      return response.status;
    });
    expect(forged).toBe(429);
  });
});

/**
 * Declining from the dashboard's Invitations card: the card leaves the list as the page's data
 * reloads, and the page still says what happened (the toast cannot come from the card itself).
 */
test("a member declines an invitation from the dashboard: the card leaves and the page says so; the team sees it declined", async ({
  page,
  newPage,
  signIn,
  uniqueEmail,
}) => {
  const suffix = uniqueSuffix();
  const invited = uniqueEmail("invited");
  await signIn(page, uniqueEmail("owner"));
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(`Decline Lab ${suffix}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "Team & invites" }).click();
  await page.getByLabel("E-mail or wallet address").fill(invited);
  await page.getByRole("button", { name: "Invite" }).click();
  await expectNotice(page, `Invitation e-mailed to ${invited}`);

  const member = await newPage();
  await signIn(member, invited);
  await member.goto("/dashboard");
  const card = member.getByRole("listitem").filter({ hasText: `Decline Lab ${suffix}` });
  await expect(card).toContainText("Reviewer");
  // Before the script takes over, the card's form would be posted as a plain form, leaving the dashboard.
  await hydrated(member);
  await card.getByRole("button", { name: "Decline" }).click();
  await expectNotice(member, `Invitation to Decline Lab ${suffix} declined`);
  await expect(card).toHaveCount(0);
  await member.reload();
  await expect(member).toHaveTitle(/^Dashboard - /);
  await expect(card).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: invited })).toContainText("Declined");
});
