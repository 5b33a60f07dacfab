import { expect, revalidate, test } from "./fixtures.ts";
import { screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";

/** One convention everywhere: times are typed and shown in the member's own zone, named. */
test.use({ timezoneId: "America/New_York" });

test("a member in New York types and reads campaign and task times in New York time", async ({ page, signIn }) => {
  const suffix = uniqueSuffix();
  await signIn(page);
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(`Zones ${suffix}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(`/projects/zones-${suffix}`);

  await page.goto(`/projects/zones-${suffix}/campaigns/new`);
  await expect(page.getByText("In your time zone (America/New_York).").first()).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Winter");
  await page.getByLabel("Starts").fill("2030-01-01T10:00");
  await page.getByLabel("Ends").fill("2030-01-10T18:30");
  // The page's data reloading while the member types (an action elsewhere on the page, routes
  // discovered for its links) draws the form again: the zone of what was typed must outlast it.
  await revalidate(page);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByText("Jan 1, 2030, 10:00 AM EST – Jan 10, 2030, 6:30 PM EST")).toBeVisible();

  await page.goto(`/projects/zones-${suffix}/tasks/new`);
  await expect(page.getByText("Times are in your time zone.")).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill("Opens later");
  await page.getByLabel("Opens", { exact: true }).fill("2030-01-02T09:30");
  // Choosing the type after the date draws the form again: the date's zone must outlast it.
  await page.getByLabel("Type").selectOption("visit_link");
  await page.getByLabel("Link to visit").fill("https://example.com");
  await page.getByLabel("Published").check();
  await page.getByRole("button", { name: "Create task" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Opens later" })).toBeVisible();
  const taskId = taskIdOf(page);
  await expect(page.getByText("Jan 2, 2030, 9:30 AM EST").first()).toBeVisible();
  await screenshot(page, "task-opens-in-new-york");

  // The edit form shows the same moment as it was typed, in New York time.
  await page.goto(`/tasks/${taskId}/edit`);
  await expect(page.getByLabel("Opens", { exact: true })).toHaveValue("2030-01-02T09:30");
});
