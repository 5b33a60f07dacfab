import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, pageWidth, test } from "./fixtures.ts";
import { uniqueSuffix } from "./quest-helpers.ts";
import { connectAccount, createProject, createTask, fakeAccount, PROVIDER_LABELS, serveAvatars, socialFakes, uniqueNumber } from "./social-helpers.ts";
import { APP_URL } from "./urls.ts";

/**
 * Full-page screenshots of the social screens, light and dark, desktop and phone, saved to
 * test-results/screenshots/social-*.png for a person to look at: Settings › Connections and each
 * provider's page (not connected, connected, refused), Verify X account, a social task with the
 * connect card and one completed with what X found, and the task form with a social type. Each
 * also checks that nothing sticks out sideways.
 */

const DEVICES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;
const THEMES = ["light", "dark"] as const;
const PROVIDERS = ["x", "youtube", "tiktok", "instagram"] as const;

for (const [device, viewport] of Object.entries(DEVICES)) {
  for (const theme of THEMES) {
    test.describe(`${device}, ${theme}`, () => {
      test.use({ viewport, colorScheme: theme });

      test("social screens", async ({ page, context, newPage, signIn, uniqueEmail }) => {
        test.setTimeout(90_000);
        const shoot = async (target: Page, name: string) => {
          if (theme === "dark") await expect(target.locator("html")).toHaveClass("dark");
          else await expect(target.locator("html")).not.toHaveClass(/dark/);
          const scrollWidth = await pageWidth(target);
          expect.soft(scrollWidth, `${name} is no wider than the window`).toBeLessThanOrEqual(viewport.width);
          await target.screenshot({
            path: path.join(test.info().project.outputDir, "screenshots", `social-${name}-${theme}-${device}.png`),
            fullPage: true,
            animations: "disabled",
          });
        };
        const member = page;
        const owner = await newPage();
        await owner.setViewportSize(viewport);
        await owner.emulateMedia({ colorScheme: theme });
        for (const target of [context, owner.context()]) {
          await target.addCookies([{ name: "appearance", value: theme, url: APP_URL }]);
          await serveAvatars(target);
        }
        await signIn(owner, uniqueEmail("owner"));
        await signIn(member, uniqueEmail("member"));

        const project = await createProject(owner, `Screens ${uniqueSuffix()}`);
        const tag = `#Quest${uniqueSuffix()}`;
        const follow = await createTask(owner, project, { type: "x_follow", title: "Follow Questline on X", xp: 40, config: { handle: "@questline" } });
        const post = await createTask(owner, project, { type: "x_post", title: "Post about the season on X", xp: 60, config: { phrase: tag } });

        await owner.goto(`/projects/${project}/tasks/new`);
        await owner.getByLabel("Type").selectOption("youtube_subscribe");
        await expect(owner.getByLabel("YouTube channel")).toBeVisible();
        await expect(owner.getByLabel("Channel name")).toBeVisible();
        await shoot(owner, "task-form-youtube");

        await member.goto("/settings/connections");
        await expect(member.getByRole("heading", { name: "Connections" })).toBeVisible();
        await shoot(member, "connections-none");
        for (const provider of PROVIDERS) {
          await member.goto(`/settings/connections/${provider}`);
          await expect(member.getByRole("button", { name: `Connect ${PROVIDER_LABELS[provider]}`, exact: true })).toBeVisible();
          await shoot(member, `connection-${provider}-not-connected`);
        }

        await member.goto(`/tasks/${follow}`);
        await expect(member.getByText("Connect your X account")).toBeVisible();
        await shoot(member, "task-connect-card");

        await member.goto("/tasks/verify-x");
        await expect(member.getByTestId("verify-post-text")).toBeVisible();
        await shoot(member, "verify-x");

        // Refused first (a personal Instagram account), then connected.
        await member.goto("/settings/connections/instagram");
        await socialFakes.nextAccount("instagram", fakeAccount("instagram", "Personal", { accountType: "PERSONAL" }));
        await member.getByRole("button", { name: "Connect Instagram", exact: true }).click();
        await expect(member.getByRole("alert")).toContainText("personal Instagram account");
        await shoot(member, "connection-instagram-error");

        const x = fakeAccount("x", "Screens");
        for (const provider of PROVIDERS) {
          await connectAccount(member, provider, provider === "x" ? x : fakeAccount(provider, "Screens"));
          await expect(member.getByRole("region", { name: "Notifications" })).toContainText(`${PROVIDER_LABELS[provider]} connected`);
          await shoot(member, `connection-${provider}-connected`);
        }
        await member.goto("/settings/connections");
        await expect(member.getByText(`@${x.handle}`)).toBeVisible();
        await shoot(member, "connections-all");

        await socialFakes.x.addPosts({
          id: uniqueNumber(),
          authorId: x.id,
          text: `A new season of quests starts today ${tag}`,
          createdAt: new Date().toISOString(),
        });
        await member.goto(`/tasks/${post}`);
        await member.getByRole("button", { name: "Check" }).click();
        await expect(member.getByText(/^Checked with X: found/)).toBeVisible();
        await member.reload();
        await expect(member.getByText(/^Checked with X: found/)).toBeVisible();
        await shoot(member, "task-completed");
      });
    });
  }
}
