import type { Page } from "@playwright/test";
import { expect, expectConsoleError, test } from "./fixtures.ts";
import { expectNotice, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";
import { connectAccount, createProject, createTask, fakeAccount, serveAvatars, socialFakes, uniqueNumber } from "./social-helpers.ts";

/**
 * Social tasks end to end: an owner makes them, a member connects the provider through the real
 * redirect flow and presses Check, and the app asks the provider's API (a fake on 127.0.0.1) what
 * the member's account did. Follows no API shows go to the team's review.
 */

test.beforeEach(async ({ context }) => {
  await serveAvatars(context);
});

/** The task's standing and XP as the member's task page shows them after a reload. */
async function expectNotDone(member: Page, taskId: string) {
  await member.goto(`/tasks/${taskId}`);
  await expect(member.getByRole("button", { name: "Check" })).toBeVisible();
  await expect(member.getByText("Completed", { exact: true })).toHaveCount(0);
  await expect(member.getByText("Pending review")).toHaveCount(0);
}

test("an owner makes an X follow with the form; the member is told 'not found yet' until X shows the follow, then earns the XP", async ({
  page,
  newPage,
  signIn,
  uniqueEmail,
}) => {
  test.setTimeout(60_000);
  const owner = page;
  const member = await newPage();
  await serveAvatars(member.context());
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const brand = { id: uniqueNumber(), username: `brand_${uniqueSuffix()}`.slice(0, 15), name: "Brand" };
  await socialFakes.x.addUsers(brand);
  const project = await createProject(owner, `Social Lab ${uniqueSuffix()}`);
  let taskId = "";

  await test.step("the owner creates the task with the task form", async () => {
    await owner.goto(`/projects/${project}/tasks/new`);
    await owner.getByLabel("Title", { exact: true }).fill("Follow us on X");
    await owner.getByLabel("Type").selectOption("x_follow");
    await expect(owner.getByRole("heading", { name: "Follow on X" })).toBeVisible();
    await owner.getByLabel("XP", { exact: true }).fill("40");
    // One way to check it: through X's API.
    await expect(owner.getByLabel("Verification").locator("option")).toHaveText(["Checked with X"]);
    await owner.getByLabel("X account to follow").fill(`https://x.com/${brand.username}`);
    await owner.getByLabel("Published").check();
    await owner.getByRole("button", { name: "Create task" }).click();
    await expect(owner.getByRole("heading", { level: 1, name: "Follow us on X" })).toBeVisible();
    taskId = taskIdOf(owner);
  });

  await test.step("the member without X connected sees how it is checked and the connect card", async () => {
    await member.goto(`/tasks/${taskId}`);
    await expect(member.getByText("Checked with X", { exact: true })).toBeVisible();
    await expect(member.getByText("Connect your X account")).toBeVisible();
    await expect(member.getByRole("button", { name: "Check" })).toHaveCount(0);
    await member.getByRole("link", { name: "Connect X" }).click();
    await expect(member).toHaveURL("/settings/connections/x");
  });

  const who = fakeAccount("x", "Mira");
  await connectAccount(member, "x", who);

  await test.step("the follow is not there yet: a clear message, and nothing changes", async () => {
    await member.goto(`/tasks/${taskId}`);
    // A check that ran and found nothing is a result, not an error: a 200 the browser does not log.
    const answered = member.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(`/tasks/${taskId}`));
    await member.getByRole("button", { name: "Check" }).click();
    expect((await answered).status()).toBe(200);
    await expect(member.getByRole("alert")).toHaveText("Not found yet — X can take a minute to show a new follow. Try again in a minute.");
    await expectNotDone(member, taskId);
  });

  await test.step("once X lists the follow, Check approves it with the XP and what X found", async () => {
    await socialFakes.x.setFollowing(who.id, [brand.id]);
    await member.getByRole("button", { name: "Check" }).click();
    await expect(member.getByText("Completed", { exact: true })).toBeVisible();
    await expect(member.getByText("You earned 40 XP for this task.")).toBeVisible();
    await expect(member.getByText(/^Checked with X: found/)).toBeVisible();
    await expectNotice(member, "+40 XP");
    await member.reload();
    await expect(member.getByText("Completed", { exact: true })).toBeVisible();
    await expect(member.getByRole("button", { name: "Check" })).toHaveCount(0);
  });

  // Only the first page of the member's follows was asked for, never the next ones.
  const { apiRequests } = await socialFakes.requests();
  const reads = apiRequests.x.filter((r) => r.path === `/2/users/${who.id}/following`);
  expect(reads).toHaveLength(2);
  expect(reads.every((r) => !("pagination_token" in r.query))).toBe(true);
});

test("a post on X, a YouTube subscription and a TikTok video are found and approved", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(90_000);
  const owner = page;
  const member = await newPage();
  await serveAvatars(member.context());
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const project = await createProject(owner, `Social Posts ${uniqueSuffix()}`);
  const tag = `#Quest${uniqueSuffix()}`;
  const channelId = `UC${uniqueNumber().padEnd(22, "c").slice(0, 22)}`;
  const tasks = {
    x: await createTask(owner, project, { type: "x_post", title: "Post about us on X", xp: 30, config: { phrase: tag } }),
    youtube: await createTask(owner, project, {
      type: "youtube_subscribe",
      title: "Subscribe on YouTube",
      xp: 20,
      config: { channelId, channelName: "Questline Lab" },
    }),
    tiktok: await createTask(owner, project, { type: "tiktok_post", title: "Post a TikTok", xp: 50, config: { phrase: tag } }),
  };

  const x = fakeAccount("x", "Poster");
  const youtube = fakeAccount("youtube", "Poster");
  const tiktok = fakeAccount("tiktok", "Poster");
  await connectAccount(member, "x", x);
  await connectAccount(member, "youtube", youtube);
  await connectAccount(member, "tiktok", tiktok);

  const postId = uniqueNumber();
  const videoId = uniqueNumber();
  await socialFakes.x.addPosts(
    { id: postId, authorId: x.id, text: `Questing today ${tag}`, createdAt: new Date().toISOString() },
    // A reply with the phrase does not count: the post above is the one found.
    { id: uniqueNumber(), authorId: x.id, text: `@someone ${tag}`, createdAt: new Date().toISOString(), reply: true },
  );
  await socialFakes.youtube.setSubscriptions(youtube.id, [{ channelId, title: "Questline" }]);
  await socialFakes.tiktok.setVideos(tiktok.id, [
    {
      id: videoId,
      video_description: `My quest ${tag}`,
      create_time: Math.floor(Date.now() / 1000),
      share_url: `https://www.tiktok.com/@${tiktok.handle}/video/${videoId}`,
    },
  ]);

  for (const [provider, label, xp, found] of [
    ["x", "X", 30, `x.com/i/status/${postId}`],
    ["youtube", "YouTube", 20, null],
    ["tiktok", "TikTok", 50, `www.tiktok.com/@${tiktok.handle}/video/${videoId}`],
  ] as const) {
    await test.step(`${label}: Check approves it`, async () => {
      await member.goto(`/tasks/${tasks[provider]}`);
      await expect(member.getByText(`Checked with ${label}`, { exact: true })).toBeVisible();
      // The channel is named, linking to it.
      if (provider === "youtube")
        await expect(member.getByRole("link", { name: "Questline Lab" })).toHaveAttribute("href", `https://www.youtube.com/channel/${channelId}`);
      await member.getByRole("button", { name: "Check" }).click();
      await expect(member.getByText("Completed", { exact: true })).toBeVisible();
      await expect(member.getByText(`You earned ${xp} XP for this task.`)).toBeVisible();
      const evidence = member.getByText(new RegExp(`^Checked with ${label}: found`));
      await expect(evidence).toBeVisible();
      if (found) await expect(evidence.getByRole("link")).toContainText(found);
    });
  }
});

test("a follow on Instagram goes to the team's review: pending, then approved by a reviewer, not the member", async ({
  page,
  newPage,
  signIn,
  uniqueEmail,
}) => {
  test.setTimeout(60_000);
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const project = await createProject(owner, `Social Review ${uniqueSuffix()}`);
  const taskId = await createTask(owner, project, {
    type: "instagram_follow",
    title: "Follow us on Instagram",
    xp: 15,
    verification: "review",
    config: { handle: "@questline" },
  });
  const proof = `https://www.instagram.com/p/${uniqueSuffix()}/`;

  await test.step("the member sends proof, without connecting Instagram", async () => {
    await member.goto(`/tasks/${taskId}`);
    await expect(member.getByText("Reviewed by the team", { exact: true })).toBeVisible();
    await expect(member.getByText(/Connect your Instagram account/)).toHaveCount(0);
    await member.getByLabel("Or a link").fill(proof);
    await member.getByRole("button", { name: "Send for review" }).click();
    await expect(member.getByText("Pending review")).toBeVisible();
    await member.reload();
    await expect(member.getByText("Pending review")).toBeVisible();
    await expect(member.getByRole("button", { name: "Send for review" })).toHaveCount(0);
  });

  await test.step("the owner approves it from the project's To review page", async () => {
    await owner.goto(`/projects/${project}/review`);
    const row = owner.getByRole("row").filter({ hasText: proof });
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: /^Approve the submission of/ }).click();
    await expect(owner.getByRole("row").filter({ hasText: proof })).toHaveCount(0);
  });

  await test.step("the member sees it completed, with the XP", async () => {
    await member.goto(`/tasks/${taskId}`);
    await expect(member.getByText("Completed", { exact: true })).toBeVisible();
    await expect(member.getByText("You earned 15 XP for this task.")).toBeVisible();
  });
});

test("each social task says how it is checked; one needing a missing connection shows the connect card", async ({ page, newPage, signIn, uniqueEmail }) => {
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const projectName = `Social Cards ${uniqueSuffix()}`;
  const project = await createProject(owner, projectName);
  const like = await createTask(owner, project, {
    type: "x_like",
    title: "Like our launch post",
    config: { postUrl: `https://x.com/questline/status/${uniqueNumber()}` },
  });
  const tiktokPost = await createTask(owner, project, { type: "tiktok_post", title: "Post a TikTok", config: { phrase: "#Questline" } });
  const follow = await createTask(owner, project, {
    type: "tiktok_follow",
    title: "Follow us on TikTok",
    verification: "review",
    config: { handle: "questline" },
  });

  // The task cards say it too (Tasks, searched by the project's name).
  await member.goto(`/tasks?q=${encodeURIComponent(projectName)}`);
  for (const [title, how] of [
    ["Like our launch post", "Checked with X"],
    ["Post a TikTok", "Checked with TikTok"],
    ["Follow us on TikTok", "Reviewed by the team"],
  ] as const) {
    await expect(member.getByRole("article").filter({ hasText: title })).toContainText(how);
  }

  for (const [taskId, label] of [
    [like, "X"],
    [tiktokPost, "TikTok"],
  ] as const) {
    await member.goto(`/tasks/${taskId}`);
    await expect(member.getByText(`Checked with ${label}`, { exact: true })).toBeVisible();
    await expect(member.getByText(`Connect your ${label} account`)).toBeVisible();
    await expect(member.getByText(new RegExp(`This task is checked with ${label}`))).toBeVisible();
    await expect(member.getByRole("link", { name: `Connect ${label}` })).toHaveAttribute("href", `/settings/connections/${label === "X" ? "x" : "tiktok"}`);
  }

  // A follow on TikTok needs no connection: proof for the team, said as such.
  await member.goto(`/tasks/${follow}`);
  await expect(member.getByText("Reviewed by the team", { exact: true })).toBeVisible();
  await expect(member.getByText(/Connect your TikTok account/)).toHaveCount(0);
  await expect(member.getByLabel("Screenshot")).toBeVisible();
  await expect(member.getByRole("button", { name: "Send for review" })).toBeVisible();
});

test("a provider that is down, then a connection it stopped accepting: each said in words, nothing changed", async ({ page, newPage, signIn, uniqueEmail }) => {
  test.setTimeout(60_000);
  // A provider that is down answers 503, a connection to renew 409: the browser logs both.
  expectConsoleError(/status of (503|409)/);
  const owner = await newPage();
  const member = page;
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const project = await createProject(owner, `Social Faults ${uniqueSuffix()}`);
  const channelId = `UC${uniqueNumber().padEnd(22, "f").slice(0, 22)}`;
  const taskId = await createTask(owner, project, {
    type: "youtube_subscribe",
    title: "Subscribe to our channel",
    xp: 20,
    config: { channelId, channelName: "Questline Faults" },
  });
  const who = fakeAccount("youtube", "Faulty");
  await connectAccount(member, "youtube", who);
  await socialFakes.youtube.setSubscriptions(who.id, [{ channelId }]);

  await member.goto(`/tasks/${taskId}`);
  await socialFakes.failNext("youtube", { kind: "server_error", status: 503 }, { path: "/youtube/v3/subscriptions" });
  await member.getByRole("button", { name: "Check" }).click();
  await expect(member.getByRole("alert")).toHaveText("Could not check with YouTube right now. Nothing changed: try again in a minute.");
  await expectNotDone(member, taskId);

  await socialFakes.revoke("youtube", who.id);
  await member.getByRole("button", { name: "Check" }).click();
  await expect(member.getByRole("alert")).toContainText("YouTube no longer accepts your connection. Reconnect it");
  await member.reload();
  await expect(member.getByText("Reconnect your YouTube account")).toBeVisible();
  await expect(member.getByRole("button", { name: "Check" })).toHaveCount(0);
  await member.goto("/settings/connections/youtube");
  await expect(member.getByText("Needs reconnecting")).toBeVisible();

  // Reconnecting makes the check work again.
  await socialFakes.nextAccount("youtube", who);
  await member.getByRole("button", { name: "Reconnect" }).click();
  await expect(member).toHaveURL("/settings/connections/youtube?connected=1");
  await expect(member.getByText("Working", { exact: true })).toBeVisible();
  await member.goto(`/tasks/${taskId}`);
  await member.getByRole("button", { name: "Check" }).click();
  await expect(member.getByText("You earned 20 XP for this task.")).toBeVisible();
});
