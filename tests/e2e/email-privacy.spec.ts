import { expect, test } from "./fixtures.ts";
import { screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";

/**
 * A project's team sees its members' names, wallets and social handles; a member's e-mail address
 * only once the member shares it with that project in Settings › Privacy, and no longer once they stop.
 */
test("a member shares their e-mail address with one project's team, and takes it back", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const projectName = `Privacy Lab ${suffix}`;
  const projectSlug = `privacy-lab-${suffix}`;
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  const memberEmail = await signIn(member, uniqueEmail("member"));

  await owner.goto("/projects/new");
  await owner.getByLabel("Name", { exact: true }).fill(projectName);
  await owner.getByRole("button", { name: "Create project" }).click();
  await expect(owner).toHaveURL(`/projects/${projectSlug}`);
  await owner.getByRole("link", { name: "New task" }).click();
  await owner.getByLabel("Title", { exact: true }).fill("Share your thread");
  await owner.getByLabel("Type").selectOption("submit_url");
  await owner.getByLabel("Verification").selectOption("review");
  await owner.getByLabel("Published").check();
  await owner.getByRole("button", { name: "Create task" }).click();
  await expect(owner.getByRole("heading", { level: 1, name: "Share your thread" })).toBeVisible();
  const taskId = taskIdOf(owner);

  await member.goto(`/tasks/${taskId}`);
  await member.getByLabel("Your link").fill("https://example.com/member-thread");
  await member.getByRole("button", { name: "Submit" }).click();
  await expect(member.getByText("Pending review")).toBeVisible();

  const row = owner.getByRole("row").filter({ hasText: "member-thread" });
  await owner.goto(`/projects/${projectSlug}/review`);
  await expect(row).toBeVisible();
  await expect(row).not.toContainText(memberEmail);

  await member.goto("/settings");
  await member.getByRole("link", { name: "Privacy" }).click();
  await expect(member).toHaveURL("/settings/privacy");
  const entry = member.getByRole("listitem").filter({ hasText: projectName });
  await expect(entry).toContainText("E-mail not shared");
  await entry.getByRole("button", { name: `Share your e-mail address with ${projectName}` }).click();
  await expect(member.getByRole("region", { name: "Notifications" })).toContainText(`${projectName}'s team now sees your e-mail address`);
  await expect(entry).toContainText("E-mail shared");
  await screenshot(member, "settings-privacy");

  await owner.reload();
  await expect(row).toContainText(memberEmail);

  await entry.getByRole("button", { name: `Stop sharing your e-mail address with ${projectName}` }).click();
  await expect(member.getByRole("region", { name: "Notifications" })).toContainText(`${projectName}'s team no longer sees your e-mail address`);
  await expect(entry).toContainText("E-mail not shared");
  await owner.reload();
  await expect(row).toBeVisible();
  await expect(row).not.toContainText(memberEmail);
});
