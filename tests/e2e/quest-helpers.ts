import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";

/** Shared by the quest specs: names, dates and screenshots. */

/** A short suffix that keeps names and addresses unique across tests and runs. */
export function uniqueSuffix() {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** A `datetime-local` value `minutes` from now (the browsers run in UTC, see playwright.config.ts). */
export function localDateTime(minutes: number) {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16);
}

/** A full-page screenshot in test-results/screenshots/, for a person to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(test.info().project.outputDir, "screenshots", `${name}.png`), fullPage: true, animations: "disabled" });
}

/** The id at the end of a task's address (`/tasks/<id>`). */
export function taskIdOf(page: Page) {
  const id = new URL(page.url()).pathname.match(/^\/tasks\/([^/]+)$/)?.[1];
  expect(id, `a task page, not ${page.url()}`).toBeTruthy();
  return id!;
}

/** The field's error shown right under it, tied to it for screen readers (`scope`: a page, a form, a dialog). */
export async function expectFieldError(scope: Page | Locator, label: string | RegExp, message: string | RegExp) {
  const field = scope.getByLabel(label, { exact: typeof label === "string" });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const id = await field.getAttribute("id");
  // In the field's own block: the nearest element around the input that holds the message.
  const error = field.locator(`xpath=ancestor::*[.//*[@id="${id}-error"]][1]`).locator(`[id="${id}-error"]`);
  await expect(error).toHaveText(message);
  await expect(field).toHaveAttribute("aria-describedby", `${id}-error`);
}

/**
 * A notice saying `message` shows; then it is closed (as a member would), so that a later notice
 * with the same words is not confused with this one while it is still on screen.
 */
export async function expectNotice(page: Page, message: string) {
  const notice = page.getByRole("region", { name: "Notifications" }).locator("[data-tone]", { hasText: message });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Close notification" }).click();
  await expect(notice).toBeHidden();
}

/** Ends a live campaign a second from now through its edit form, as an owner ends one early. */
export async function endCampaignSoon(page: Page, campaignUrl: string) {
  await page.goto(`${campaignUrl}/edit`);
  await page.getByLabel("Ends").fill(new Date(Date.now() + 1000).toISOString().slice(0, 19));
  await page.getByRole("button", { name: "Save campaign" }).click();
  // Saved once the campaign's page says so (the form's page shows its name too).
  await expectNotice(page, "Campaign saved");
  await expect(page).toHaveURL((url) => url.pathname === campaignUrl);
}
