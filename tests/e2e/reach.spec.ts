import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request as playwrightRequest } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expect, test } from "./fixtures.ts";
import { screenshot, taskIdOf, uniqueSuffix } from "./quest-helpers.ts";

/** A project's server, started by the test: keeps every request it is sent, verified with the standardwebhooks package. */
async function projectServer() {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/questline`, received, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Reach, end to end on the production build, in two browsers: an owner creates an API key (shown
 * once) and reads the project through /api/v1 with it from a client without cookies, adds a
 * webhook endpoint on a server of its own and sends a test event that arrives signed; a member's
 * submission is rejected with a reason, which reaches the member's inbox (the bell's count) and
 * the owner's endpoint as `completion.rejected`.
 */
test("an API key, a signed webhook, and a rejection that reaches the member's inbox", async ({ page, newPage, signIn, uniqueEmail, baseURL }) => {
  test.setTimeout(150_000);
  const suffix = uniqueSuffix();
  const projectSlug = `reach-lab-${suffix}`;
  const taskTitle = "Share your launch thread";
  const reason = "The thread is private: share a public link, please.";
  const owner = page;
  const member = await newPage();
  await signIn(owner, uniqueEmail("owner"));
  await signIn(member, uniqueEmail("member"));
  const receiver = await projectServer();
  let apiKey = "";
  let secret = "";
  let taskId = "";

  try {
    await test.step("the owner creates a project with a reviewed task", async () => {
      await owner.goto("/projects/new");
      await owner.getByLabel("Name", { exact: true }).fill(`Reach Lab ${suffix}`);
      await owner.getByRole("button", { name: "Create project" }).click();
      await expect(owner).toHaveURL(`/projects/${projectSlug}`);
      await owner.goto(`/projects/${projectSlug}/tasks/new`);
      await owner.getByLabel("Title", { exact: true }).fill(taskTitle);
      await owner.getByLabel("Type").selectOption("submit_url");
      await owner.getByLabel("Verification").selectOption("review");
      await owner.getByLabel("Published").check();
      await owner.getByRole("button", { name: "Create task" }).click();
      await expect(owner.getByRole("heading", { level: 1, name: taskTitle })).toBeVisible();
      taskId = taskIdOf(owner);
    });

    await test.step("the owner creates an API key, shown once, and reads the project with it; the member may not open the page", async () => {
      await owner.goto(`/projects/${projectSlug}`);
      await owner.getByRole("link", { name: "API keys of this project" }).click();
      await owner.getByLabel("Name").fill("Our backend");
      await owner.getByRole("button", { name: "Create key" }).click();
      const shown = owner.getByLabel("The new API key");
      await expect(shown).toBeVisible();
      apiKey = await shown.inputValue();
      expect(apiKey).toMatch(/^ql_/);
      await screenshot(owner, "project-api-key-created");
      await owner.reload();
      // Only its fingerprint is kept: the page never shows the key again.
      expect(await owner.content()).not.toContain(apiKey);
      expect((await member.request.get(`/projects/${projectSlug}/api`)).status()).toBe(403);

      // A server of the project's: no cookies, only the key.
      const client = await playwrightRequest.newContext({ baseURL });
      try {
        const read = await client.get("/api/v1/project", { headers: { Authorization: `Bearer ${apiKey}` } });
        expect(read.status()).toBe(200);
        expect(read.headers()["ratelimit-limit"]).toBeTruthy();
        expect(await read.json()).toMatchObject({ slug: projectSlug });
        const grant = await client.post("/api/v1/xp/grants", {
          headers: { Authorization: `Bearer ${apiKey}`, "Idempotency-Key": "e2e-1" },
          data: { member_id: "nobody", amount: 10, reason: "AMA" },
        });
        // A read key may not grant XP: refused in the one error shape, naming the scope.
        expect(grant.status()).toBe(403);
        expect(await grant.json()).toMatchObject({ error: { code: "forbidden", message: expect.stringContaining("xp:write") } });
        expect((await client.get("/api/v1/project")).status()).toBe(401);
      } finally {
        await client.dispose();
      }
    });

    await test.step("the owner adds a webhook endpoint on the project's server and sends a test event: it arrives signed", async () => {
      await owner.goto(`/projects/${projectSlug}`);
      await owner.getByRole("link", { name: "Webhooks" }).click();
      await owner.getByLabel("Endpoint URL").fill(receiver.url);
      await owner.getByLabel(/^completion\.rejected/).check();
      await owner.getByRole("button", { name: "Add endpoint" }).click();
      secret = await owner.getByLabel("Signing secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      await owner.getByRole("link", { name: receiver.url }).first().click();
      await owner.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
      const test = receiver.received[0]!;
      expect(new Webhook(secret).verify(test.body, test.headers)).toMatchObject({ type: "webhook.test" });
      await expect(async () => {
        await owner.reload();
        await expect(owner.getByText("webhook.test")).toBeVisible();
        await expect(owner.getByText("HTTP 204").first()).toBeVisible();
      }).toPass({ timeout: 20_000 });
      await screenshot(owner, "project-webhook-endpoint-log");
    });

    await test.step("the member sends a link; the owner rejects it with a reason", async () => {
      await member.goto(`/tasks/${taskId}`);
      await member.getByLabel("Your link").fill("https://example.com/threads/private");
      await member.getByRole("button", { name: "Submit" }).click();
      await expect(member.getByText("Pending review")).toBeVisible();

      await owner.goto(`/projects/${projectSlug}/review`);
      const row = owner.getByRole("row").filter({ hasText: taskTitle });
      await row.getByRole("button", { name: /^Reject the submission of / }).click();
      const dialog = owner.getByRole("dialog");
      await dialog.getByLabel("Reason").fill(reason);
      await dialog.getByRole("button", { name: "Reject", exact: true }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step("the member's bell counts it, the inbox says why, and Mark all read clears the count", async () => {
      await expect(async () => {
        await member.goto("/dashboard");
        await expect(member.getByRole("link", { name: /^Notifications, \d+ unread$/ })).toBeVisible();
      }).toPass({ timeout: 20_000 });
      await member.getByRole("link", { name: /^Notifications, \d+ unread$/ }).click();
      await expect(member.getByText(reason)).toBeVisible();
      await screenshot(member, "notifications-inbox");
      await member.getByRole("button", { name: "Mark all read" }).click();
      await expect(member.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
    });

    await test.step("the endpoint hears the rejection, signed, with the reason", async () => {
      await expect.poll(() => receiver.received.filter((r) => r.body.includes("completion.rejected")).length, { timeout: 20_000 }).toBe(1);
      const rejected = receiver.received.find((r) => r.body.includes("completion.rejected"))!;
      expect(new Webhook(secret).verify(rejected.body, rejected.headers)).toMatchObject({ type: "completion.rejected", data: { taskId, reason } });
    });
  } finally {
    await receiver.close();
  }
});
