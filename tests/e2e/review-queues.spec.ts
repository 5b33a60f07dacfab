import { expect, expectConsoleError, SAME_ORIGIN, test } from "./fixtures.ts";
import { screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";

/**
 * Review outside campaigns, and nobody deciding on their own submission: an owner who also plays
 * sees their own row without buttons (and why), a crusade step in review is decided from the
 * project's "To review" page, and the count in the project's header follows.
 */
test("the project's To review page: crusade steps and standalone tasks, never one's own", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(120_000);
  // The refused self-approval answers 200 with the reason; a refused form logs nothing else.
  expectConsoleError(/status of 400/);
  const suffix = uniqueSuffix();
  const projectSlug = `review-lab-${suffix}`;
  const stepTitle = "Send your mainnet thread";
  const nextTitle = "Read the mainnet post";
  const crusadeUrl = `/projects/${projectSlug}/crusades/road-to-review`;

  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  let stepId = "";

  await test.step("the owner builds a crusade whose first step is reviewed by the team", async () => {
    await owner.goto("/projects/new");
    await owner.getByLabel("Name", { exact: true }).fill(`Review Lab ${suffix}`);
    await owner.getByRole("button", { name: "Create project" }).click();
    await expect(owner).toHaveURL(`/projects/${projectSlug}`);

    await owner.getByRole("link", { name: "New task" }).click();
    await owner.getByLabel("Title", { exact: true }).fill(stepTitle);
    await owner.getByLabel("Type").selectOption("submit_url");
    await owner.getByLabel("XP", { exact: true }).fill("70");
    await owner.getByLabel("Verification").selectOption("review");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: stepTitle })).toBeVisible();
    stepId = taskIdOf(owner);

    await owner.goto(`/projects/${projectSlug}/tasks/new`);
    await owner.getByLabel("Title", { exact: true }).fill(nextTitle);
    await owner.getByLabel("Type").selectOption("visit_link");
    await owner.getByLabel("Link to visit").fill("https://example.com/post");
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: nextTitle })).toBeVisible();

    await owner.goto(`/projects/${projectSlug}/crusades/new`);
    await owner.getByLabel("Name", { exact: true }).fill("Road to review");
    await owner.getByRole("button", { name: `Add ${stepTitle}` }).click();
    await owner.getByRole("button", { name: `Add ${nextTitle}` }).click();
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create crusade" }).click();
    await expect(owner).toHaveURL(crusadeUrl);
  });

  await test.step("the owner and a member both submit the reviewed step", async () => {
    for (const [who, url] of [
      [owner, "https://example.com/owner-thread"],
      [member, "https://example.com/member-thread"],
    ] as const) {
      await who.goto(`/tasks/${stepId}`);
      await who.getByLabel("Your link").fill(url);
      await who.getByRole("button", { name: "Submit" }).click();
      await expect(who.getByText("Pending review")).toBeVisible();
    }
    await member.goto(crusadeUrl);
    await expect(member.getByRole("region", { name: "Tasks" }).getByRole("listitem").nth(0)).toContainText("In review");
  });

  await test.step("the project's header counts what waits, and its page lists the crusade's queue", async () => {
    await owner.goto(`/projects/${projectSlug}`);
    const toReview = owner.getByRole("link", { name: "To review: 2 submissions wait for review" });
    await expect(toReview).toBeVisible();
    // Members who are not in the team see no such link, and the page refuses them.
    await member.goto(`/projects/${projectSlug}`);
    await expect(member.getByRole("link", { name: /^To review/ })).toHaveCount(0);
    const refused = await member.request.get(`/projects/${projectSlug}/review`);
    expect(refused.status()).toBe(403);

    await toReview.click();
    await expect(owner).toHaveTitle(/^To review · Review Lab/);
    await expect(owner.getByRole("heading", { level: 1, name: "To review" })).toBeVisible();
    await owner.getByLabel("Queue").selectOption({ label: "Crusade: Road to review" });
    await owner.getByRole("button", { name: "Filter" }).click();
    await expect(owner.getByText("2 submissions match")).toBeVisible();
    await screenshot(owner, "review-queue-project");
  });

  await test.step("the owner's own row has no buttons and says why; the server refuses it too", async () => {
    const ownRow = owner.getByRole("row").filter({ hasText: "owner-thread" });
    await expect(ownRow).toContainText("Your own submission: another member of the team reviews it.");
    await expect(ownRow.getByRole("button")).toHaveCount(0);
    await expect(ownRow.getByRole("checkbox")).toHaveCount(0);
  });

  await test.step("select all picks only the member's row; approving it opens the member's next step", async () => {
    await owner.getByRole("checkbox", { name: "Select all on this page" }).check();
    await expect(owner.getByText("1 selected")).toBeVisible();
    await owner.getByRole("button", { name: "Approve 1 selected" }).click();
    await expect(owner.getByText("Approved", { exact: true })).toBeVisible();
    await expect(owner.getByRole("row").filter({ hasText: "member-thread" })).toHaveCount(0);
    await expect(owner.getByRole("row").filter({ hasText: "owner-thread" })).toBeVisible();

    await member.goto(crusadeUrl);
    const steps = member.getByRole("region", { name: "Tasks" }).getByRole("listitem");
    await expect(steps.nth(0)).toContainText("Done");
    await expect(member.getByRole("link", { name: `Start: ${nextTitle}` })).toBeVisible();

    await owner.goto(`/projects/${projectSlug}`);
    await expect(owner.getByRole("link", { name: "To review: 1 submission waits for review" })).toBeVisible();
  });
});

test("a forged approval of one's own submission is refused and pays nothing", async ({ page, signIn, uniqueEmail }) => {
  const suffix = uniqueSuffix();
  const projectSlug = `self-review-${suffix}`;
  await signIn(page, uniqueEmail("owner"));
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(`Self Review ${suffix}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(`/projects/${projectSlug}`);
  await page.getByRole("link", { name: "New task" }).click();
  await page.getByLabel("Title", { exact: true }).fill("My own link");
  await page.getByLabel("Type").selectOption("submit_url");
  await page.getByLabel("XP", { exact: true }).fill("900");
  await page.getByLabel("Verification").selectOption("review");
  await page.getByLabel("Published").check();
  await page.getByRole("button", { name: "Create task" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My own link" })).toBeVisible();
  const taskId = taskIdOf(page);
  await page.getByLabel("Your link").fill("https://example.com/mine");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Pending review")).toBeVisible();

  await page.goto(`/projects/${projectSlug}/review`);
  const ownRow = page.getByRole("row").filter({ hasText: "https://example.com/mine" });
  await expect(ownRow).toContainText("Your own submission");
  const completionId = (await ownRow.getAttribute("id"))?.replace(/^submission-/, "");
  expect(completionId, "the row names its submission").toBeTruthy();
  const forged = await page.request.post(`/projects/${projectSlug}/review`, {
    form: { intent: "approve", ids: completionId! },
    headers: SAME_ORIGIN,
  });
  expect(await forged.text()).toContain("You cannot review your own submission");
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByText("Pending review")).toBeVisible();
});
