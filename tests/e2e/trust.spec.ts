import { expect, SAME_ORIGIN, test } from "./fixtures.ts";
import { screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";

/**
 * The sybil defence's actions end to end, in two browsers: an owner excludes a participant from
 * the project with a reason, the member reads it at Settings › Trust and appeals, the appeal waits
 * in the project's To review page, and the owner upholds it: the exclusion is lifted and the audit
 * log says who did what and why.
 */
test("an owner excludes a participant, who appeals; the upheld appeal lifts the exclusion", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(120_000);
  const suffix = uniqueSuffix();
  const projectSlug = `trust-lab-${suffix}`;
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));

  await test.step("the owner publishes a task and the member does it", async () => {
    await owner.goto("/projects/new");
    await owner.getByLabel("Name", { exact: true }).fill(`Trust Lab ${suffix}`);
    await owner.getByRole("button", { name: "Create project" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}`);
    await owner.goto(`/projects/${projectSlug}/tasks/new`);
    await owner.getByLabel("Title", { exact: true }).fill("Read the launch post");
    await owner.getByLabel("Type").selectOption("visit_link");
    await owner.getByLabel("Link to visit").fill("https://example.com/launch");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: "Read the launch post" })).toBeVisible();
    const taskId = taskIdOf(owner);

    // The visit itself is the task page's business (quest-engine.spec.ts): here only its effect counts.
    const visited = await member.request.post(`/tasks/${taskId}`, { form: { intent: "visit" }, headers: SAME_ORIGIN });
    expect(visited.ok()).toBe(true);
  });

  await test.step("the owner excludes the member from the project, with a reason; the page refuses the member", async () => {
    await owner.goto(`/projects/${projectSlug}`);
    await owner.getByRole("link", { name: "Trust & exclusions" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: "Trust" })).toBeVisible();
    await owner.getByRole("link", { name: "All", exact: true }).click();
    await owner.getByText("Exclude…").click();
    const form = owner.getByRole("form", { name: /^Exclude / });
    await form.getByLabel("Reason").fill("Shares a funder with our test accounts.");
    await form.getByRole("button", { name: "Exclude" }).click();
    await expect(owner.getByText("Excluded from the whole project").first()).toBeVisible();
    expect((await member.request.get(`/projects/${projectSlug}/trust`)).status()).toBe(403);
  });

  await test.step("the member reads the reason at Settings › Trust and appeals", async () => {
    await member.goto("/settings/trust");
    await expect(member.getByText("Shares a funder with our test accounts.")).toBeVisible();
    await member.getByLabel(/^Appeal your exclusion from/).fill("I have one account, and I funded it from my own exchange withdrawal.");
    await member.getByRole("button", { name: "Send appeal" }).click();
    await expect(member.getByText("Appeal pending")).toBeVisible();
    await screenshot(member, "settings-trust-appeal");
  });

  await test.step("the appeal waits in To review; the owner upholds it and the exclusion is lifted", async () => {
    await owner.goto(`/projects/${projectSlug}/review`);
    const appeals = owner.getByRole("region", { name: "Appeals" });
    await expect(appeals).toContainText("I have one account");
    await appeals.getByLabel(/^Answer to /).fill("Checked: your funder is an exchange. Welcome back.");
    await appeals.getByRole("button", { name: "Uphold" }).click();
    // With nothing left to decide, the page shows no Appeals section.
    await expect(appeals).toHaveCount(0);

    await member.goto("/settings/trust");
    await expect(member.getByText("Appeal upheld")).toBeVisible();
    await expect(member.getByText("Lifted", { exact: true })).toBeVisible();

    await owner.goto(`/projects/${projectSlug}/trust?tab=audit`);
    await expect(owner.getByText("Shares a funder with our test accounts.").first()).toBeVisible();
    // Who acted is named (members without a name as such), never taken for a former member.
    await expect(owner.getByText("by a former member")).toHaveCount(0);
    await screenshot(owner, "project-trust-audit");
  });
});
