import { expect, expectConsoleError, test } from "./fixtures.ts";
import type { Page } from "@playwright/test";

const PASSWORD = "correct horse battery";

async function signOutFromMenu(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a password instead" }).click();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("sets a password, then signs in with it", async ({ page, signIn }) => {
  expectConsoleError(/status of 400/);
  const email = await signIn(page);
  await page.goto("/settings/password");
  await expect(page.getByText("Set a password")).toBeVisible();
  const newPassword = page.getByLabel("New password", { exact: true });
  const confirm = page.getByLabel("Confirm new password");
  const save = page.getByRole("button", { name: "Save password" });

  await newPassword.fill("short");
  await confirm.fill("short");
  await save.click();
  await expect(page.getByText("Use at least 8 characters")).toBeVisible();
  await expect(newPassword).toHaveValue("short");
  await expect(page).toHaveURL("/settings/password");

  await newPassword.fill(PASSWORD);
  await confirm.fill(`${PASSWORD}!`);
  await save.click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await expect(newPassword).toHaveValue(PASSWORD);
  await expect(confirm).toHaveValue(`${PASSWORD}!`);

  await confirm.fill(PASSWORD);
  await save.click();
  await expect(page.getByText("Password saved")).toBeVisible();
  await expect(page.getByText("Change password")).toBeVisible();

  await signOutFromMenu(page);
  await signInWithPassword(page, email, PASSWORD);
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
});

test("a wrong password is refused", async ({ page, signIn }) => {
  expectConsoleError(/status of 400/);
  const email = await signIn(page);
  await page.goto("/settings/password");
  await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm new password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password saved")).toBeVisible();
  await signOutFromMenu(page);

  await signInWithPassword(page, email, "not the password");
  await expect(page.getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL("/login");
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
});
