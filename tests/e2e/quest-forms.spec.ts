import type { APIRequestContext, Page } from "@playwright/test";
import { browserIssues, expect, expectConsoleError, SAME_ORIGIN, test } from "./fixtures.ts";
import { expectFieldError, localDateTime, uniqueSuffix } from "./quest-helpers.ts";

/**
 * Every create and edit form of the quest engine refuses bad input: each field's error shows
 * beside it, what was typed stays, and nothing is saved (checked after a reload or on the list).
 * The things the forms are tried on are made over HTTP, as the forms themselves would post them.
 */

// Each test submits a form many times; on a busy machine that can pass the default 30 s.
test.describe.configure({ timeout: 60_000 });

/** The operator (platform categories) of the e2e server; see OPERATORS in playwright.config.ts. */
const OPERATOR_EMAIL = "operator@example.com";

async function post(request: APIRequestContext, url: string, form: Record<string, string>) {
  const response = await request.post(url, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), `POST ${url} redirects to what it saved`).toBe(302);
  return response.headers().location!;
}

async function createProject(page: Page, name: string) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await post(page.request, "/projects/new", { name, slug, description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" });
  return slug;
}

async function createCampaign(page: Page, project: string, name: string) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await post(page.request, `/projects/${project}/campaigns/new`, {
    name,
    slug,
    description: "",
    startsAt: localDateTime(-60),
    endsAt: localDateTime(24 * 60),
    published: "on",
  });
  return slug;
}

async function createTask(page: Page, project: string, fields: Record<string, string>) {
  const location = await post(page.request, `/projects/${project}/tasks/new`, {
    type: "visit_link",
    xp: "10",
    verification: "none",
    recurrence: "once",
    description: "",
    startsAt: "",
    endsAt: "",
    cap: "",
    "config.url": "https://example.com/read",
    campaignId: "",
    published: "on",
    ...fields,
  });
  return location.match(/\/tasks\/([^/?]+)/)![1]!;
}

async function expectNotFound(page: Page, url: string) {
  expect((await page.request.get(url)).status(), `${url} does not exist`).toBe(404);
}

test.describe("with a signed-in owner", () => {
  test.beforeEach(async ({ page, signIn }) => {
    // Refused forms answer 400, which the browser logs.
    expectConsoleError(/status of 400/);
    await signIn(page);
  });

  test("the new-project form explains each bad field and creates nothing", async ({ page }) => {
    const suffix = uniqueSuffix();
    const taken = await createProject(page, `Taken ${suffix}`);
    const name = `Probe ${suffix}`;
    const slug = `probe-${suffix}`;

    // The form loads the project schema, zod's in the browser too: told never to compile with eval,
    // which the CSP forbids (the browser would report each try as an issue).
    const issues = await browserIssues(page);
    await page.goto("/projects/new");
    await page.getByRole("button", { name: "Create project" }).click();
    await expectFieldError(page, "Name", "A project name has at least 2 characters");
    expect(issues).toEqual([]);
    await expectFieldError(page, "Address", "The address needs at least 3 characters");

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Address").fill("Bad Slug!");
    await page.getByLabel("Website").fill("http://example.com");
    await page.getByLabel("X", { exact: true }).fill("https://example.com/me");
    await page.getByLabel("Discord").fill("https://discord.example.com/x");
    await page.getByLabel("Telegram").fill("https://telegram.org/me");
    await page.getByRole("button", { name: "Create project" }).click();
    await expectFieldError(page, "Address", "Use lowercase letters, digits and single hyphens");
    await expectFieldError(page, "Website", "Enter a full https:// link");
    await expectFieldError(page, "X", "Enter a link to x.com");
    await expectFieldError(page, "Discord", "Enter a discord.gg or discord.com link");
    await expectFieldError(page, "Telegram", "Enter a t.me link");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(page.getByLabel("Website")).toHaveValue("http://example.com");

    // Every field right but the logo, which is not an image.
    await page.getByLabel("Address").fill(slug);
    for (const field of ["Website", "X", "Discord", "Telegram"]) await page.getByLabel(field, { exact: true }).fill("");
    await page.getByLabel("Logo").setInputFiles({ name: "logo.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
    await page.getByRole("button", { name: "Create project" }).click();
    await expectFieldError(page, "Logo", "Choose a PNG, JPEG, GIF or WebP image");

    // An address another project has.
    await page.getByLabel("Logo").setInputFiles([]);
    await page.getByLabel("Address").fill(taken);
    await page.getByRole("button", { name: "Create project" }).click();
    await expectFieldError(page, "Address", "That address is taken");
    await expect(page).toHaveURL("/projects/new");

    await expectNotFound(page, `/projects/${slug}`);
    await page.goto(`/projects?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
    await expect(page.getByText(name)).toHaveCount(0);
  });

  test("the edit-project form explains each bad field and changes nothing", async ({ page }) => {
    const suffix = uniqueSuffix();
    const slug = await createProject(page, `Edited ${suffix}`);
    const other = await createProject(page, `Other ${suffix}`);

    await page.goto(`/projects/${slug}/edit`);
    await page.getByLabel("Name", { exact: true }).fill("Z");
    await page.getByLabel("Address").fill("-bad-");
    await page.getByLabel("Description").fill("x".repeat(10));
    await page.getByLabel("Website").fill("not a link");
    await page.getByRole("button", { name: "Save project" }).click();
    await expectFieldError(page, "Name", "A project name has at least 2 characters");
    await expectFieldError(page, "Address", "Use lowercase letters, digits and single hyphens");
    await expectFieldError(page, "Website", "Enter a full https:// link");

    await page.getByLabel("Name", { exact: true }).fill(`Renamed ${suffix}`);
    await page.getByLabel("Address").fill(other);
    await page.getByLabel("Website").fill("");
    await page.getByRole("button", { name: "Save project" }).click();
    await expectFieldError(page, "Address", "That address is taken");

    await page.goto(`/projects/${slug}/edit`);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`Edited ${suffix}`);
    await expect(page.getByLabel("Address")).toHaveValue(slug);
    await expect(page.getByLabel("Description")).toHaveValue("");
    await page.goto(`/projects/${other}`);
    await expect(page.getByRole("heading", { level: 1, name: `Other ${suffix}` })).toBeVisible();
  });

  test("the campaign forms explain each bad field and save nothing", async ({ page }) => {
    const suffix = uniqueSuffix();
    const project = await createProject(page, `Campaigns ${suffix}`);
    const existing = await createCampaign(page, project, "Spring Sprint");

    await page.goto(`/projects/${project}/campaigns/new`);
    // Side by side, Starts (with its time zone hint below) and Ends are level.
    const top = async (label: string) => (await page.getByLabel(label, { exact: true }).boundingBox())!.y;
    expect(await top("Ends")).toBe(await top("Starts"));
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expectFieldError(page, "Name", "A name has at least 3 characters");
    await expectFieldError(page, "Address", "The address needs at least 3 characters");
    await expectFieldError(page, "Starts", "Enter when it starts");
    await expectFieldError(page, "Ends", "Enter when it ends");

    await page.getByLabel("Name", { exact: true }).fill("Autumn Quests");
    await page.getByLabel("Starts").fill(localDateTime(60));
    await page.getByLabel("Ends").fill(localDateTime(-60));
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expectFieldError(page, "Ends", "The end comes after the start");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Autumn Quests");
    await expect(page.getByLabel("Address")).toHaveValue("autumn-quests");

    // A new campaign that has already ended would hold tasks nobody can do.
    await page.getByLabel("Starts").fill(localDateTime(-2 * 24 * 60));
    await page.getByLabel("Ends").fill(localDateTime(-24 * 60));
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expectFieldError(page, "Ends", "That time has passed: choose a later end");

    await page.getByLabel("Ends").fill(localDateTime(24 * 60));
    await page.getByLabel("Address").fill(existing);
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expectFieldError(page, "Address", "This project already uses that address");

    await expectNotFound(page, `/projects/${project}/campaigns/autumn-quests`);
    await page.goto(`/projects/${project}/campaigns`);
    await expect(page.getByText("Spring Sprint")).toBeVisible();
    await expect(page.getByText("Autumn Quests")).toHaveCount(0);

    // Editing: a short name and an end before the start.
    await page.goto(`/projects/${project}/campaigns/${existing}/edit`);
    const startsAt = await page.getByLabel("Starts").inputValue();
    const endsAt = await page.getByLabel("Ends").inputValue();
    await page.getByLabel("Name", { exact: true }).fill("ab");
    await page.getByLabel("Address").fill("x");
    await page.getByLabel("Ends").fill(localDateTime(-24 * 60));
    await page.getByRole("button", { name: "Save campaign" }).click();
    await expectFieldError(page, "Name", "A name has at least 3 characters");
    await expectFieldError(page, "Address", "The address needs at least 3 characters");
    await expectFieldError(page, "Ends", "The end comes after the start");

    await page.reload();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Spring Sprint");
    await expect(page.getByLabel("Address")).toHaveValue(existing);
    await expect(page.getByLabel("Starts")).toHaveValue(startsAt);
    await expect(page.getByLabel("Ends")).toHaveValue(endsAt);
  });

  test("the task forms explain each bad field and save nothing", async ({ page }) => {
    const suffix = uniqueSuffix();
    const project = await createProject(page, `Tasks ${suffix}`);

    await page.goto(`/projects/${project}/tasks/new`);
    await page.getByLabel("Title", { exact: true }).fill("ab");
    await page.getByLabel("XP", { exact: true }).fill("0");
    await page.getByLabel("Type").selectOption("quiz");
    await page.getByLabel("Wait after a wrong answer (seconds)").fill("-5");
    await page.getByLabel("Places").fill("0");
    await page.getByLabel("Opens", { exact: true }).fill(localDateTime(120));
    await page.getByLabel("Closes", { exact: true }).fill(localDateTime(60));
    await page.getByRole("button", { name: "Create task" }).click();
    await expectFieldError(page, "Title", "A title has at least 3 characters");
    await expectFieldError(page, "XP", "At least 1 XP");
    await expectFieldError(page, "Question", "Write the question");
    await expectFieldError(page, "Accepted answers", "Give at least one accepted answer");
    await expectFieldError(page, "Wait after a wrong answer (seconds)", "Enter a whole number of seconds from 0 to 86,400");
    await expectFieldError(page, "Places", "The cap is a whole number of at least 1");
    await expectFieldError(page, "Closes", "The end comes after the start");
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("ab");
    await expect(page.getByLabel("Type")).toHaveValue("quiz");

    await page.getByLabel("Type").selectOption("visit_link");
    await page.getByLabel("Title", { exact: true }).fill("Read the docs");
    await page.getByLabel("XP", { exact: true }).fill("10");
    await page.getByLabel("Places").fill("");
    await page.getByLabel("Opens", { exact: true }).fill("");
    await page.getByLabel("Closes", { exact: true }).fill("");
    await page.getByLabel("Link to visit").fill("docs page");
    await page.getByRole("button", { name: "Create task" }).click();
    await expectFieldError(page, "Link to visit", "Enter the link to visit: http:// or https://");
    await page.getByLabel("Link to visit").fill("https://example.com/docs");
    await page.getByLabel("Closes", { exact: true }).fill(localDateTime(-60));
    await page.getByRole("button", { name: "Create task" }).click();
    await expectFieldError(page, "Closes", "That time has passed: choose a later end");
    await page.getByLabel("Closes", { exact: true }).fill("");
    await expect(page).toHaveURL(`/projects/${project}/tasks/new`);

    // The project still has no task (the crusade form lists them all, drafts too).
    await page.goto(`/projects/${project}/crusades/new`);
    await expect(page.getByText("This project has no tasks yet.")).toBeVisible();

    // Editing a task.
    const taskId = await createTask(page, project, { title: "Follow the blog", xp: "15" });
    await page.goto(`/tasks/${taskId}/edit`);
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByLabel("XP", { exact: true }).fill("100001");
    await page.getByLabel("Link to visit").fill("");
    await page.getByRole("button", { name: "Save task" }).click();
    await expectFieldError(page, "Title", "A title has at least 3 characters");
    await expectFieldError(page, "XP", "At most 100,000 XP");
    await expectFieldError(page, "Link to visit", "Enter the link to visit: http:// or https://");

    await page.reload();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Follow the blog");
    await expect(page.getByLabel("XP", { exact: true })).toHaveValue("15");
    await expect(page.getByLabel("Link to visit")).toHaveValue("https://example.com/read");

    // Once a member has done it, its type stays.
    const done = await page.request.post(`/tasks/${taskId}`, { form: { intent: "visit" }, headers: SAME_ORIGIN });
    expect(done.status()).toBe(200);
    await page.reload();
    await expect(page.getByText("Members have done this task: its type stays.")).toBeVisible();
    await page.getByLabel("Type").selectOption("quiz");
    await page.getByLabel("Question").fill("What does the blog cover?");
    await page.getByLabel("Accepted answers").fill("Quests");
    await page.getByRole("button", { name: "Save task" }).click();
    await expectFieldError(page, "Type", "Members have done this task: its type cannot change");
    await page.reload();
    await expect(page.getByLabel("Type")).toHaveValue("visit_link");
    await expect(page.getByLabel("Link to visit")).toHaveValue("https://example.com/read");
  });

  test("a quiz refuses an empty answer and records nothing", async ({ page }) => {
    const project = await createProject(page, `Quiz ${uniqueSuffix()}`);
    const taskId = await createTask(page, project, {
      title: "Spell the token",
      type: "quiz",
      verification: "auto",
      "config.question": "What is the token's ticker?",
      "config.answers": "QST",
    });
    await page.goto(`/tasks/${taskId}`);
    await page.getByLabel("Your answer").fill("   ");
    await page.getByRole("button", { name: "Submit answer" }).click();
    await expectFieldError(page, "Your answer", "Enter your answer");
    await page.reload();
    await expect(page.getByLabel("Your answer")).toBeVisible();
    await expect(page.getByText("Completed")).toHaveCount(0);
  });

  test("the crusade forms explain each bad field and save nothing", async ({ page }) => {
    const suffix = uniqueSuffix();
    const project = await createProject(page, `Crusades ${suffix}`);
    const first = await createTask(page, project, { title: "First step" });
    await createTask(page, project, { title: "Second step" });

    await page.goto(`/projects/${project}/crusades/new`);
    await page.getByLabel("Completion bonus (XP)").fill("-5");
    await page.getByRole("button", { name: "Add First step" }).click();
    await page.getByRole("button", { name: "Create crusade" }).click();
    await expectFieldError(page, "Name", "A name has at least 3 characters");
    await expectFieldError(page, "Address", "The address needs at least 3 characters");
    await expectFieldError(page, "Completion bonus (XP)", "Zero or more");
    // The chosen task is kept.
    await expect(page.getByRole("button", { name: "Remove First step" })).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill("Grand Tour");
    await page.getByLabel("Completion bonus (XP)").fill("lots");
    await page.getByRole("button", { name: "Create crusade" }).click();
    await expectFieldError(page, "Completion bonus (XP)", "Enter the bonus XP");
    await expect(page.getByLabel("Address")).toHaveValue("grand-tour");

    // A task of another project, slipped into the ordered list.
    const elsewhere = await createProject(page, `Elsewhere ${suffix}`);
    const foreign = await createTask(page, elsewhere, { title: "Not ours" });
    await page.getByLabel("Completion bonus (XP)").fill("10");
    await page.locator('input[name="taskIds"]').evaluate((input: HTMLInputElement, id) => (input.value += `,${id}`), foreign);
    await page.getByRole("button", { name: "Create crusade" }).click();
    const picker = page.getByRole("group", { name: "Tasks, in order" });
    await expect(picker).toHaveAttribute("aria-describedby", "taskIds-error");
    await expect(picker.locator("#taskIds-error")).toHaveText("Choose tasks of this project, each once.");

    await expectNotFound(page, `/projects/${project}/crusades/grand-tour`);
    await page.goto(`/projects/${project}/crusades`);
    await expect(page.getByText("Grand Tour")).toHaveCount(0);
    // The task was not put in a crusade either.
    await page.goto(`/tasks/${first}`);
    await expect(page.getByText("Grand Tour")).toHaveCount(0);

    // Editing a crusade.
    await post(page.request, `/projects/${project}/crusades/new`, {
      name: "Long Road",
      slug: "long-road",
      description: "",
      bonusXp: "50",
      taskIds: first,
      published: "on",
    });
    await page.goto(`/projects/${project}/crusades/long-road/edit`);
    await page.getByLabel("Name", { exact: true }).fill("ab");
    await page.getByLabel("Completion bonus (XP)").fill("2.5");
    await page.getByRole("button", { name: "Add Second step" }).click();
    await page.getByRole("button", { name: "Save crusade" }).click();
    await expectFieldError(page, "Name", "A name has at least 3 characters");
    await expectFieldError(page, "Completion bonus (XP)", "A whole number");

    await page.reload();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Long Road");
    await expect(page.getByLabel("Completion bonus (XP)")).toHaveValue("50");
    await expect(page.getByRole("button", { name: "Remove First step" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove Second step" })).toHaveCount(0);
  });

  test("the invite form explains a bad address and invites no one", async ({ page, inbox }) => {
    const project = await createProject(page, `Team ${uniqueSuffix()}`);
    await page.goto(`/projects/${project}/invites`);
    await page.getByRole("button", { name: "Invite" }).click();
    await expectFieldError(page, "E-mail or wallet address", "Enter an e-mail or a wallet address");

    for (const target of ["not-an-email", "0x1234"]) {
      await page.getByLabel("E-mail or wallet address").fill(target);
      await page.getByRole("button", { name: "Invite" }).click();
      await expectFieldError(page, "E-mail or wallet address", "Enter an e-mail or a 0x wallet address");
      await expect(page.getByLabel("E-mail or wallet address")).toHaveValue(target);
    }

    await page.reload();
    await expect(page.getByText("No invitations yet")).toBeVisible();
    expect(await inbox.messages("not-an-email")).toEqual([]);
  });
});

test("the leaderboard settings form explains a bad name and keeps the old one", async ({ page, signIn }) => {
  expectConsoleError(/status of 400/);
  await signIn(page);
  await page.goto("/settings/leaderboard");
  await page.getByLabel("Name on leaderboards").fill("Q");
  await page.getByRole("button", { name: "Save leaderboard settings" }).click();
  await expectFieldError(page, "Name on leaderboards", "Use at least 2 characters, or leave it empty to use your profile name");

  await page.getByLabel("Show me on public leaderboards").uncheck();
  await page.getByLabel("Name on leaderboards").fill("x".repeat(31));
  await page.getByRole("button", { name: "Save leaderboard settings" }).click();
  await expectFieldError(page, "Name on leaderboards", "Use at most 30 characters");

  await page.reload();
  await expect(page.getByLabel("Name on leaderboards")).toHaveValue("");
  await expect(page.getByLabel("Show me on public leaderboards")).toBeChecked();
});

test("the operator's category forms explain a bad name and save nothing", async ({ page, signIn }) => {
  expectConsoleError(/status of 400/);
  await signIn(page, OPERATOR_EMAIL);
  await page.goto("/operator/categories");
  const create = page.locator("form").filter({ has: page.getByRole("button", { name: "Create" }) });
  await create.getByLabel("Name").fill("D");
  await create.getByRole("button", { name: "Create" }).click();
  await expectFieldError(create, "Name", "At least 2 characters");
  await create.getByLabel("Name").fill("--");
  await create.getByRole("button", { name: "Create" }).click();
  await expectFieldError(create, "Name", "Use at least 2 letters or digits in the name");
  await page.reload();
  await expect(page.getByText("No categories yet")).toBeVisible();

  const name = `Gaming ${uniqueSuffix()}`;
  await create.getByLabel("Name").fill(name);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText(`${name} is created`)).toBeVisible();
  // The same name again: its address is taken.
  await create.getByLabel("Name").fill(name.toUpperCase());
  await create.getByRole("button", { name: "Create" }).click();
  await expectFieldError(create, "Name", "A category with this address already exists");

  await page.getByRole("button", { name: `Rename ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectFieldError(dialog, "Name", "At least 2 characters");
  await dialog.getByLabel("Name").fill("Z");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectFieldError(dialog, "Name", "At least 2 characters");
  await expect(dialog).toBeVisible();

  await page.reload();
  await expect(page.getByRole("button", { name: `Rename ${name}` })).toBeVisible();
  await expect(page.getByText("1 category,")).toBeVisible();
});
