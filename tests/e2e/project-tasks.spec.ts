import { expect, pageWidth, test } from "./fixtures.ts";
import { screenshot, uniqueSuffix } from "./quest-helpers.ts";

/** A project's Tasks page: every task wherever it is, filtered; drafts only for the team. */
test("a project's Tasks page lists its tasks with their status; drafts only for the team", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const projectSlug = `task-list-${suffix}`;
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));

  await test.step("the owner creates a project with a published task and a draft", async () => {
    await owner.goto("/projects/new");
    await owner.getByLabel("Name", { exact: true }).fill(`Task List ${suffix}`);
    await owner.getByRole("button", { name: "Create project" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}`);
    for (const [title, published] of [
      ["Read the launch post", true],
      ["Draft: try the testnet", false],
    ] as const) {
      await owner.goto(`/projects/${projectSlug}/tasks/new`);
      await owner.getByLabel("Title", { exact: true }).fill(title);
      await owner.getByLabel("Type").selectOption("visit_link");
      await owner.getByLabel("Link to visit").fill("https://example.com/post");
      if (published) await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create task" }).click();
      await expect(owner.getByRole("heading", { level: 1, name: title })).toBeVisible();
    }
  });

  await test.step("the owner opens Tasks from the project page and filters the drafts", async () => {
    await owner.goto(`/projects/${projectSlug}`);
    await owner.getByRole("link", { name: "Tasks of this project" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}/tasks`);
    await expect(owner).toHaveTitle(/Task List .* tasks/);
    const table = owner.getByRole("table");
    await expect(table.getByRole("row", { name: /Read the launch post.*Standalone.*Visit a link.*Live/ })).toBeVisible();
    await expect(table.getByRole("row", { name: /Draft: try the testnet.*Draft/ })).toBeVisible();
    await owner.getByRole("link", { name: "Drafts" }).click();
    await expect(owner).toHaveURL(/status=draft/);
    await expect(table.getByRole("row")).toHaveCount(2); // the header and the draft
    await owner.getByRole("searchbox", { name: "Search this project's tasks" }).fill("nothing like this");
    await owner.getByRole("button", { name: "Search" }).click();
    await expect(owner.getByText("No task matches these filters")).toBeVisible();
    await owner.getByRole("link", { name: "Show every task" }).click();
    await expect(table.getByRole("row")).toHaveCount(3);
    await screenshot(owner, "project-tasks-owner");
    // On a phone the owner's longer status tabs (Drafts among them) scroll within their row.
    await owner.setViewportSize({ width: 375, height: 812 });
    await expect(owner.getByRole("link", { name: "Drafts" })).toBeAttached();
    expect(await pageWidth(owner)).toBeLessThanOrEqual(375);
  });

  await test.step("a member sees the published task only, on a phone too", async () => {
    await member.setViewportSize({ width: 375, height: 812 });
    await member.goto(`/projects/${projectSlug}/tasks?status=draft`);
    const list = member.getByRole("list", { name: "Tasks" });
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await expect(list.getByText("Read the launch post")).toBeVisible();
    await expect(member.getByRole("link", { name: "Drafts" })).toHaveCount(0);
    expect(await pageWidth(member)).toBeLessThanOrEqual(375);
    await screenshot(member, "project-tasks-member-phone");
    await member.emulateMedia({ colorScheme: "dark" });
    await member.context().addCookies([{ name: "appearance", value: "dark", url: new URL(member.url()).origin }]);
    await member.reload();
    await expect(member.locator("html")).toHaveClass("dark");
    await screenshot(member, "project-tasks-member-phone-dark");
  });
});
