import type { Page } from "@playwright/test";
import { browserIssues, CLUSTER_TAG, expect, expectConsoleError, SAME_ORIGIN, test } from "./fixtures.ts";
import { expectFieldError, localDateTime, screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";
import { APP_URL } from "./urls.ts";

/**
 * The quest engine end to end, as three people in three browsers: a team owner builds a project
 * with a campaign (a quiz and a link submission) and a crusade, a reviewer joins from the mailed
 * invitation and reviews, and a member plays, climbing the campaign, project and global boards.
 * A fourth member (over HTTP only) answers the quiz first, so the member's rank has to change.
 */

/** The rows of the board on the page, best first. */
const boardRows = (page: Page) => page.getByRole("list", { name: "Leaderboard" }).getByRole("listitem");

test(
  "an owner, a reviewer and a member run a campaign and a crusade",
  CLUSTER_TAG,
  async ({ page, newPage, signIn, uniqueEmail, inbox, playwright, clientAddress }) => {
    test.setTimeout(240_000);
    // Refused answers and forms answer 400, which the browser logs.
    expectConsoleError(/status of 400/);

    const suffix = uniqueSuffix();
    const projectName = `Quest Lab ${suffix}`;
    const projectSlug = `quest-lab-${suffix}`;
    const campaignName = "Launch Week";
    const campaignUrl = `/projects/${projectSlug}/campaigns/launch-week`;
    const crusadeUrl = `/projects/${projectSlug}/crusades/road-to-mainnet`;
    const quizTitle = "Name the chain";
    const linkTitle = "Share your launch thread";
    const visitTitle = "Read the launch post";
    const reason = "The link does not open: share the public thread";

    // Everyone signs in first: the invitation then arrives as the reviewer's second e-mail.
    const owner = page;
    const reviewer = await newPage();
    const member = await newPage();
    await signIn(owner, uniqueEmail("owner"));
    const reviewerEmail = await signIn(reviewer, uniqueEmail("reviewer"));
    await signIn(member, uniqueEmail("member"));

    await test.step("the owner creates the project", async () => {
      await owner.goto("/projects/new");
      await owner.getByLabel("Name", { exact: true }).fill(projectName);
      await expect(owner.getByLabel("Address")).toHaveValue(projectSlug);
      await owner.getByLabel("Description").fill("Where the quest engine is tried out.");
      await owner.getByRole("button", { name: "Create project" }).click();
      await expect(owner).toHaveURL(`/projects/${projectSlug}`);
      await expect(owner.getByText(`${projectName} is created. Invite your team and add tasks.`)).toBeVisible();
    });

    await test.step("the owner invites a reviewer, who accepts from the e-mail", async () => {
      await owner.getByRole("link", { name: "Team & invites" }).click();
      await owner.getByLabel("E-mail or wallet address").fill(reviewerEmail);
      await owner.getByLabel("Role", { exact: true }).selectOption("reviewer");
      await owner.getByRole("button", { name: "Invite" }).click();
      await expect(owner.getByText(`Invitation e-mailed to ${reviewerEmail}`)).toBeVisible();

      const mail = await inbox.latestMail(reviewerEmail, { count: 2 });
      expect(mail.subject).toBe(`Join ${projectName} on Questline`);
      const link = mail.text.match(/https?:\/\/\S+\/invites\/\S+/)?.[0];
      expect(link, "the invitation link in the e-mail").toBeTruthy();
      expect(link!.startsWith(`${APP_URL}/invites/`)).toBe(true);

      await reviewer.goto(link!);
      await expect(reviewer.getByRole("heading", { name: projectName })).toBeVisible();
      await expect(reviewer.getByText("Reviewer", { exact: true })).toBeVisible();
      await reviewer.getByRole("button", { name: "Accept and join" }).click();
      await expect(reviewer).toHaveURL(`/projects/${projectSlug}`);
      await expect(reviewer.getByText(`You joined the team of ${projectName}`)).toBeVisible();
    });

    await test.step("the owner creates a live campaign", async () => {
      await owner.goto(`/projects/${projectSlug}`);
      await owner.getByRole("link", { name: "New campaign" }).click();
      await owner.getByLabel("Name", { exact: true }).fill(campaignName);
      await expect(owner.getByLabel("Address")).toHaveValue("launch-week");
      await owner.getByLabel("Description").fill("A week of launch quests.");
      await owner.getByLabel("Starts").fill(localDateTime(-60));
      await owner.getByLabel("Ends").fill(localDateTime(7 * 24 * 60));
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create campaign" }).click();
      await expect(owner).toHaveURL(campaignUrl);
      await expect(owner.getByText("Campaign created")).toBeVisible();
      await expect(owner.getByRole("heading", { level: 1, name: campaignName })).toBeVisible();
    });

    let quizId = "";
    let linkId = "";
    let visitId = "";

    await test.step("the owner adds a quiz and a link submission to the campaign", async () => {
      await owner.getByRole("link", { name: "Add task" }).first().click();
      await expect(owner.getByLabel("Campaign")).toHaveValue(/.+/);
      await owner.getByLabel("Title", { exact: true }).fill(quizTitle);
      await owner.getByLabel("Type").selectOption("quiz");
      await owner.getByLabel("XP", { exact: true }).fill("50");
      await expect(owner.getByLabel("Verification")).toHaveValue("auto");
      await owner.getByLabel("Question").fill("Which chain does Questline launch on?");
      await owner.getByLabel("Accepted answers").fill("Quest Line\nQL Mainnet");
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create task" }).click();
      await expect(owner.getByText("Task created")).toBeVisible();
      await expect(owner.getByRole("heading", { level: 1, name: quizTitle })).toBeVisible();
      quizId = taskIdOf(owner);

      await owner.goto(campaignUrl);
      await owner.getByRole("link", { name: "Add task" }).first().click();
      await owner.getByLabel("Title", { exact: true }).fill(linkTitle);
      await owner.getByLabel("Type").selectOption("submit_url");
      await owner.getByLabel("XP", { exact: true }).fill("100");
      await owner.getByLabel("Verification").selectOption("review");
      await owner.getByLabel("Instructions").fill("Post about the launch and send the link to your post.");
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create task" }).click();
      await expect(owner.getByRole("heading", { level: 1, name: linkTitle })).toBeVisible();
      linkId = taskIdOf(owner);

      await owner.goto(campaignUrl);
      const tasks = owner.getByRole("region", { name: "Tasks" }).getByRole("listitem");
      await expect(tasks).toHaveCount(2);
      await expect(tasks.filter({ hasText: quizTitle })).toContainText("Quiz");
      await expect(tasks.filter({ hasText: quizTitle })).toContainText("50 XP");
      await expect(tasks.filter({ hasText: linkTitle })).toContainText("Submit a link");
      await expect(tasks.filter({ hasText: linkTitle })).toContainText("100 XP");
    });

    await test.step("the owner builds a crusade: the link submission, then a visit", async () => {
      await owner.goto(`/projects/${projectSlug}`);
      await owner.getByRole("link", { name: "New task" }).click();
      await owner.getByLabel("Title", { exact: true }).fill(visitTitle);
      await owner.getByLabel("Type").selectOption("visit_link");
      await owner.getByLabel("XP", { exact: true }).fill("20");
      await owner.getByLabel("Link to visit").fill("https://example.com/launch");
      await expect(owner.getByLabel("Campaign")).toHaveValue("");
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create task" }).click();
      await expect(owner.getByRole("heading", { level: 1, name: visitTitle })).toBeVisible();
      visitId = taskIdOf(owner);

      await owner.goto(`/projects/${projectSlug}`);
      await owner.getByRole("link", { name: "New crusade" }).click();
      await owner.getByLabel("Name", { exact: true }).fill("Road to mainnet");
      await expect(owner.getByLabel("Address")).toHaveValue("road-to-mainnet");
      await owner.getByLabel("Completion bonus (XP)").fill("200");
      // Added out of order, then put in order with the arrows.
      await owner.getByRole("button", { name: `Add ${visitTitle}` }).click();
      await owner.getByRole("button", { name: `Add ${linkTitle}` }).click();
      await owner.getByRole("button", { name: `Move ${linkTitle} up` }).click();
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create crusade" }).click();
      await expect(owner).toHaveURL(crusadeUrl);
      await expect(owner.getByText("Crusade created")).toBeVisible();
      await expect(owner.getByRole("heading", { level: 3 })).toHaveText([linkTitle, visitTitle]);
      await expect(owner.getByText("+200 XP")).toBeVisible();
    });

    await test.step("another member answers the quiz first", async () => {
      // Its own address, as another person would have.
      const rivalAddress = clientAddress.replace(/^10\.\d+\./, "10.250.");
      const rival = await playwright.request.newContext({ baseURL: APP_URL, extraHTTPHeaders: { "X-Forwarded-For": rivalAddress } });
      await signIn(rival, uniqueEmail("rival"));
      const named = await rival.post("/settings/leaderboard", { form: { visible: "on", displayName: "Rex Rival" }, headers: SAME_ORIGIN });
      expect(named.status()).toBe(200);
      const answered = await rival.post(`/tasks/${quizId}`, { form: { intent: "answer", answer: "QL Mainnet" }, headers: SAME_ORIGIN });
      expect(answered.status(), "the rival's right answer").toBe(200);
      await rival.dispose();
    });

    await test.step("the member picks a leaderboard name and sees the campaign", async () => {
      await member.goto("/settings/leaderboard");
      await member.getByLabel("Name on leaderboards").fill("Mira Member");
      await member.getByRole("button", { name: "Save leaderboard settings" }).click();
      await expect(member.getByText("Leaderboard settings saved")).toBeVisible();

      // Nothing on the page does what the Content-Security-Policy forbids.
      const issues = await browserIssues(member);
      await member.goto(campaignUrl);
      await expect(member.locator('head link[rel="canonical"]')).toHaveAttribute("href", new URL(campaignUrl, member.url()).href);
      await expect(member.getByRole("link", { name: `Start: ${quizTitle}` })).toBeVisible();
      await expect(member.getByRole("link", { name: `Start: ${linkTitle}` })).toBeVisible();
      await expect(member.getByRole("progressbar", { name: "Tasks done" })).toHaveAttribute("aria-valuetext", "0 of 2 tasks done");
      await screenshot(member, "quest-campaign-show");
      expect(issues).toEqual([]);
    });

    await test.step("the member answers the quiz: wrong, then right in other case and spacing", async () => {
      await member.getByRole("link", { name: `Start: ${quizTitle}` }).click();
      await expect(member.getByRole("heading", { level: 1, name: quizTitle })).toBeVisible();
      await member.getByLabel("Your answer").fill("Ethereum");
      await member.getByRole("button", { name: "Submit answer" }).click();
      await expectFieldError(member, "Your answer", "That is not the answer.");
      await expect(member.getByLabel("Your answer")).toHaveValue("Ethereum");

      await member.getByLabel("Your answer").fill("  quest   LINE ");
      await member.getByRole("button", { name: "Submit answer" }).click();
      await expect(member.getByText("+50 XP")).toBeVisible();
      await expect(member.getByText("Completed")).toBeVisible();
      await expect(member.getByText("You earned 50 XP for this task.")).toBeVisible();
      await expect(member.getByLabel("Your answer")).toHaveCount(0);

      // Tied on XP with the member who answered earlier: second.
      await member.goto(`${campaignUrl}/leaderboard`);
      await expect(boardRows(member)).toHaveText([/#1.*Rex Rival.*50 XP/, /#2.*Mira Member.*\(you\).*50 XP/]);
    });

    await test.step("the crusade's second step is locked while the first waits", async () => {
      await member.goto(crusadeUrl);
      const steps = member.getByRole("region", { name: "Tasks" }).getByRole("listitem");
      await expect(steps.nth(0)).toContainText("Step 1");
      await expect(member.getByRole("link", { name: `Start: ${linkTitle}` })).toBeVisible();
      await expect(steps.nth(1).getByLabel("Locked")).toBeVisible();
      await expect(steps.nth(1)).toContainText(`Complete “${linkTitle}” first.`);
      await expect(member.getByRole("link", { name: `Start: ${visitTitle}` })).toHaveCount(0);

      // The locked task's own page says why, and offers nothing to do.
      await member.goto(`/tasks/${visitId}`);
      await expect(member.getByText("Locked", { exact: true })).toBeVisible();
      await expect(member.getByRole("button", { name: "Verify" })).toHaveCount(0);
      // A direct attempt is refused by the engine too (and pays nothing: see the boards below): the
      // rule ran and said no, a result answered 200 with the reason.
      const forced = await member.request.post(`/tasks/${visitId}`, { form: { intent: "visit" }, headers: SAME_ORIGIN });
      expect(forced.status()).toBe(200);
    });

    await test.step("the member submits a link: a bad one is refused, a good one waits for review", async () => {
      await member.goto(`/tasks/${linkId}`);
      await expect(member.getByText("The team reviews each submission; the XP arrives when it is approved.")).toBeVisible();
      await member.getByLabel("Your link").fill("my thread on x");
      await member.getByRole("button", { name: "Submit" }).click();
      await expectFieldError(member, "Your link", "Enter a full link starting with https://");

      await member.getByLabel("Your link").fill("https://example.com/threads/1");
      await member.getByRole("button", { name: "Submit" }).click();
      await expect(member.getByText("Submitted for review")).toBeVisible();
      await expect(member.getByText("Pending review")).toBeVisible();

      await member.goto(campaignUrl);
      await expect(member.getByRole("region", { name: "Tasks" }).getByRole("listitem").filter({ hasText: linkTitle })).toContainText("In review");

      await member.goto(crusadeUrl);
      const steps = member.getByRole("region", { name: "Tasks" }).getByRole("listitem");
      await expect(steps.nth(0)).toContainText("In review");
      await expect(steps.nth(1).getByLabel("Locked")).toBeVisible();
      await screenshot(member, "quest-crusade-locked-step");
    });

    await test.step("the reviewer rejects it with a reason (a missing reason is refused)", async () => {
      await reviewer.goto(`/projects/${projectSlug}`);
      await reviewer.getByRole("link", { name: `${campaignName} live`, exact: true }).click();
      await expect(reviewer).toHaveURL(`${campaignUrl}/submissions`);
      await expect(reviewer.getByRole("heading", { level: 1, name: "Submissions" })).toBeVisible();
      const row = reviewer.getByRole("row").filter({ hasText: linkTitle });
      await expect(row).toContainText("https://example.com/threads/1");
      // The quiz's auto-approved answers are not waiting for anyone.
      await expect(reviewer.getByRole("row").filter({ hasText: quizTitle })).toHaveCount(0);
      await screenshot(reviewer, "quest-submissions-review");

      await row.getByRole("button", { name: /^Reject the submission of / }).click();
      const dialog = reviewer.getByRole("dialog");
      await dialog.getByLabel("Reason").fill("no");
      await dialog.getByRole("button", { name: "Reject", exact: true }).click();
      await expectFieldError(reviewer, "Reason", "Say why, so the member can do better");
      // Nothing was decided: the dialog stays open (the Rejected tab below shows only the real reason).
      await expect(dialog).toBeVisible();

      await dialog.getByLabel("Reason").fill(reason);
      await dialog.getByRole("button", { name: "Reject", exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(reviewer.getByText("No pending submissions")).toBeVisible();

      await reviewer.getByRole("link", { name: /^Rejected/ }).click();
      await expect(reviewer.getByRole("row").filter({ hasText: linkTitle })).toContainText(reason);
    });

    await test.step("the member reads the reason and sends the link again", async () => {
      await member.goto(crusadeUrl);
      const steps = member.getByRole("region", { name: "Tasks" }).getByRole("listitem");
      await expect(steps.nth(0)).toContainText("Rejected");
      await expect(steps.nth(0)).toContainText(`Reason: ${reason}`);
      await expect(steps.nth(1).getByLabel("Locked")).toBeVisible();

      await member.goto(campaignUrl);
      await expect(member.getByText(`Reason: ${reason}`)).toBeVisible();
      await member.getByRole("link", { name: `Try again: ${linkTitle}` }).click();
      await expect(member.getByText("Rejected", { exact: true })).toBeVisible();
      await expect(member.getByText(`“${reason}”`)).toBeVisible();
      await member.getByLabel("Your link").fill("https://example.com/threads/public");
      await member.getByRole("button", { name: "Try again" }).click();
      await expect(member.getByText("Pending review")).toBeVisible();
    });

    await test.step("the reviewer approves the new link", async () => {
      await reviewer.goto(`${campaignUrl}/submissions`);
      const row = reviewer.getByRole("row").filter({ hasText: linkTitle });
      await expect(row).toContainText("https://example.com/threads/public");
      await row.getByRole("button", { name: /^Approve the submission of / }).click();
      await expect(reviewer.getByText("No pending submissions")).toBeVisible();
      await reviewer.getByRole("link", { name: /^Approved/ }).click();
      await expect(reviewer.getByRole("row").filter({ hasText: linkTitle })).toContainText(`Approved by ${reviewerEmail}`);
    });

    await test.step("the member's XP, rank and board rows follow", async () => {
      await member.goto(`/tasks/${linkId}`);
      await expect(member.getByText("You earned 100 XP for this task.")).toBeVisible();

      await member.goto(campaignUrl);
      await expect(member.getByRole("progressbar", { name: "Tasks done" })).toHaveAttribute("aria-valuetext", "2 of 2 tasks done");

      await member.goto(`${campaignUrl}/leaderboard`);
      await expect(boardRows(member)).toHaveText([/#1.*Mira Member.*\(you\).*150 XP/, /#2.*Rex Rival.*50 XP/]);
      await screenshot(member, "quest-campaign-leaderboard");

      await member.goto(`/projects/${projectSlug}/leaderboard`);
      await expect(boardRows(member)).toHaveText([/#1.*Mira Member.*\(you\).*150 XP/, /#2.*Rex Rival.*50 XP/]);

      await member.goto("/dashboard");
      await expect(member.getByText("150 XP earned")).toBeVisible();
    });

    await test.step("the crusade unlocks its second step; finishing it pays the bonus", async () => {
      await member.goto(crusadeUrl);
      const steps = member.getByRole("region", { name: "Tasks" }).getByRole("listitem");
      await expect(steps.nth(0)).toContainText("Done");
      await expect(steps.nth(1).getByLabel("Locked")).toHaveCount(0);
      await member.getByRole("link", { name: `Start: ${visitTitle}` }).click();
      await member.getByRole("button", { name: "Verify" }).click();
      // The step's 20 XP and the crusade's 200.
      await expect(member.getByText("+220 XP")).toBeVisible();

      await member.goto(crusadeUrl);
      await expect(member.getByText("Completed", { exact: true })).toBeVisible();
      await expect(member.getByRole("progressbar", { name: "Tasks done" })).toHaveAttribute("aria-valuetext", "2 of 2 tasks done");

      // The bonus counts on the project's and the global board, not the campaign's.
      await member.goto(`/projects/${projectSlug}/leaderboard`);
      await expect(boardRows(member)).toHaveText([/#1.*Mira Member.*\(you\).*370 XP/, /#2.*Rex Rival.*50 XP/]);
      await member.goto(`${campaignUrl}/leaderboard`);
      await expect(boardRows(member).first()).toHaveText(/#1.*Mira Member.*150 XP/);

      await member.goto("/leaderboard");
      const mine = boardRows(member).filter({ hasText: "Mira Member" });
      await expect(mine).toHaveText(/370 XP/);
      const rank = Number((await mine.textContent())?.match(/#(\d+)/)?.[1]);
      const rivalRank = Number((await boardRows(member).filter({ hasText: "Rex Rival" }).textContent())?.match(/#(\d+)/)?.[1]);
      expect(rank).toBeLessThan(rivalRank);
      await screenshot(member, "quest-global-leaderboard");

      await member.goto("/dashboard");
      await expect(member.getByText("370 XP earned")).toBeVisible();
      await expect(member.getByRole("link", { name: `All time: rank ${rank}, open the board` })).toBeVisible();
    });
  },
);
