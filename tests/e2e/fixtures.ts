/* eslint-disable no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter: `{}` is "none". */
import path from "node:path";
import { test as base, expect, type APIRequestContext, type BrowserContext, type BrowserContextOptions, type Page, type TestInfo } from "@playwright/test";
import { clusterInfoFile } from "./cluster-teardown.ts";
import { e2eServers, startServer } from "./servers.ts";
import { APP_URL, CLUSTER, INBOX_URL } from "./urls.ts";

/**
 * What every e2e test gets:
 *
 * - console guard (automatic): a `console.error` or an uncaught exception on any page fails the
 *   test, unless the test said it expects one with `expectConsoleError(pattern)`;
 * - its own client address: a unique X-Forwarded-For on every request, so tests never share the
 *   server's per-address rate limits;
 * - `inbox`: the mail the app sent, read from the fake SMTP server (tests/fakes/smtp-inbox.ts);
 * - `signIn(page)`: a signed-in session without clicking through the sign-in screens;
 * - `uniqueEmail()` and `newPage(options)` (a second, signed-out browser with the same client address).
 */

export type Mail = { to: string; subject: string; text: string; receivedAt: string };

export const SAME_ORIGIN = { Origin: APP_URL };

/**
 * Marks a test that also runs against the cluster (`E2E_CLUSTER=1`): one that exercises what
 * several processes change — money, jobs, sign-in, rate limits, caching — or every screen once
 * (decision 049).
 */
export const CLUSTER_TAG = { tag: "@cluster" };

const EXPECTED_CONSOLE_ERROR = "expected-console-error";

/**
 * Lets this test log console errors matching `pattern` (any error when omitted), e.g. the
 * browser's "Failed to load resource: … status of 400" after a form is refused on purpose.
 */
export function expectConsoleError(pattern?: RegExp) {
  test.info().annotations.push({ type: EXPECTED_CONSOLE_ERROR, description: pattern?.source });
}

function allowedConsoleErrors(testInfo: TestInfo) {
  return testInfo.annotations.filter((a) => a.type === EXPECTED_CONSOLE_ERROR).map((a) => (a.description ? new RegExp(a.description) : /.*/s));
}

function watchConsole(context: BrowserContext, errors: string[]) {
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    // For a failed request, the location is the resource's own URL.
    const source = message.location().url;
    errors.push(`console.error on ${message.page()?.url() ?? "?"}: ${message.text()}${source ? ` (${source})` : ""}`);
  });
  context.on("weberror", (error) => errors.push(`uncaught on ${error.page()?.url() ?? "?"}: ${error.error().message}`));
}

/** The fake mail server's inbox. */
export class Inbox {
  async messages(to: string): Promise<Mail[]> {
    const response = await fetch(`${INBOX_URL}/messages?to=${encodeURIComponent(to)}`);
    if (!response.ok) throw new Error(`inbox answered ${response.status}`);
    return (await response.json()) as Mail[];
  }

  /** Waits until `to` holds at least `count` messages and returns the newest one. */
  async latestMail(to: string, { count = 1, timeout = 10_000 }: { count?: number; timeout?: number } = {}): Promise<Mail> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const messages = await this.messages(to);
      if (messages.length >= count) return messages[messages.length - 1]!;
      if (Date.now() > deadline) throw new Error(`no mail #${count} for ${to} within ${timeout} ms (got ${messages.length})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The 6-digit code of a sign-in or e-mail change message (links are left out of the search). */
  codeFrom(mail: Mail): string {
    const code = mail.text.replace(/https?:\/\/\S+/g, "").match(/\b\d{6}\b/)?.[0];
    if (!code) throw new Error(`no 6-digit code in the mail "${mail.subject}"`);
    return code;
  }

  /** The magic sign-in link of a sign-in message. */
  linkFrom(mail: Mail): string {
    const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/magic-link\/verify\?token=\S+/)?.[0];
    if (!link) throw new Error(`no sign-in link in the mail "${mail.subject}"`);
    expect(link.startsWith(`${APP_URL}/api/auth/magic-link/verify?token=`), link).toBe(true);
    return link;
  }
}

type SignInTarget = Page | APIRequestContext;

type Fixtures = {
  /** This test's X-Forwarded-For address. */
  clientAddress: string;
  consoleGuard: void;
  clusterTime: void;
  inbox: Inbox;
  uniqueEmail: (label?: string) => string;
  signIn: (target: SignInTarget, email?: string) => Promise<string>;
  /** A page in a new browser context: no cookies, same client address, same console guard. */
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
};

type WorkerFixtures = { addressCounter: { next: () => number }; servers: void };

export const test = base.extend<Fixtures & { consoleErrors: string[] }, WorkerFixtures>({
  // This worker's mail server, social fakes and app, on its own ports and database (against the
  // cluster, the run's one set, which playwright.config.ts starts).
  servers: [
    async ({}, provide, workerInfo) => {
      if (CLUSTER) return provide();
      const dataDir = path.join(process.env.QUESTLINE_E2E_DATA_DIR!, `worker-${workerInfo.workerIndex}`);
      const started = await Promise.allSettled(e2eServers({ dataDir, clusterInfoFile: clusterInfoFile(dataDir) }).map(startServer));
      const running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      try {
        for (const result of started) if (result.status === "rejected") throw result.reason;
        await provide();
      } finally {
        await Promise.all(running.map((server) => server.stop()));
      }
    },
    { scope: "worker", auto: true, timeout: 180_000 },
  ],

  baseURL: async ({}, provide) => {
    await provide(APP_URL);
  },

  addressCounter: [
    async ({}, provide) => {
      let n = 0;
      await provide({ next: () => ++n });
    },
    { scope: "worker" },
  ],

  clientAddress: async ({ addressCounter }, provide, testInfo) => {
    const n = addressCounter.next();
    await provide(`10.${testInfo.workerIndex % 250}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`);
  },

  extraHTTPHeaders: async ({ clientAddress }, provide) => {
    await provide({ "X-Forwarded-For": clientAddress });
  },

  consoleErrors: async ({}, provide) => {
    await provide([]);
  },

  // Against the cluster every test may wait out a worker killed mid-job: its time limit doubles.
  clusterTime: [
    async ({}, provide, testInfo) => {
      if (process.env.E2E_CLUSTER === "1") testInfo.setTimeout(testInfo.timeout * 2);
      await provide();
    },
    { auto: true },
  ],

  consoleGuard: [
    async ({ context, consoleErrors }, provide, testInfo) => {
      watchConsole(context, consoleErrors);
      await provide();
      const allowed = allowedConsoleErrors(testInfo);
      const unexpected = consoleErrors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      expect(unexpected, "console errors or uncaught exceptions in the browser").toEqual([]);
    },
    { auto: true },
  ],

  inbox: async ({}, provide) => {
    await provide(new Inbox());
  },

  uniqueEmail: async ({}, provide, testInfo) => {
    let n = 0;
    const stamp = Date.now().toString(36);
    await provide((label = "member") => `${label}-${testInfo.testId.slice(0, 8)}-${stamp}-${++n}@example.com`.toLowerCase());
  },

  signIn: async ({ inbox, uniqueEmail }, provide) => {
    await provide(async (target, email = uniqueEmail()) => {
      const request = "request" in target ? target.request : target;
      const sent = await request.post("/login", { form: { intent: "send", email }, headers: SAME_ORIGIN });
      expect(sent.status(), "the sign-in e-mail is sent").toBe(200);
      const code = inbox.codeFrom(await inbox.latestMail(email));
      const signedIn = await request.post("/login", {
        form: { intent: "code", email, code },
        headers: SAME_ORIGIN,
        maxRedirects: 0,
      });
      expect(signedIn.status(), "the code is accepted").toBe(302);
      return email;
    });
  },

  newPage: async ({ browser, clientAddress, consoleErrors }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (options = {}) => {
      const context = await browser.newContext({ ...options, baseURL: APP_URL, extraHTTPHeaders: { "X-Forwarded-For": clientAddress } });
      contexts.push(context);
      watchConsole(context, consoleErrors);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect };

/** Types a code into the six "Digit n" boxes, one key at a time, as a member would. */
export async function typeCode(page: Page, code: string) {
  await page.getByLabel("Digit 1").click();
  await page.keyboard.type(code);
}

/** Holds the page's scripts back until the returned function is called: the page stays plain HTML meanwhile. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Opens `path` with its scripts held back, clicks the button named `name` while the page is still
 * plain HTML, waits for the navigation that click starts (a lost click times out here), then lets
 * the scripts load.
 */
export async function clickBeforeScript(page: Page, path: string, name: string) {
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: "commit" });
  const from = page.url();
  await page.getByRole("button", { name }).click();
  await page.waitForURL((url) => url.href !== from, { waitUntil: "commit" });
  release();
}

/** Waits until the page's script has taken over its markup (root.tsx marks the document): a click before that may open nothing. */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

type DataRouter = { state: { loaderData: Record<string, unknown> }; revalidate: () => Promise<void> };

/**
 * A route's loader data as the page holds it (React Router's data router, `routeId` as in
 * app/routes.ts: "root", "routes/balance"…), once the page has hydrated: before that the router
 * does not exist yet.
 */
export async function loaderData<T>(page: Page, routeId: string): Promise<T | undefined> {
  await hydrated(page);
  return (await page.evaluate((id) => (window as unknown as { __reactRouterDataRouter: DataRouter }).__reactRouterDataRouter.state.loaderData[id], routeId)) as
    T | undefined;
}

/** Loads the page's data again, as an action elsewhere on it would, once the page has hydrated. */
export async function revalidate(page: Page) {
  await hydrated(page);
  await page.evaluate(() => (window as unknown as { __reactRouterDataRouter: DataRouter }).__reactRouterDataRouter.revalidate());
}

/**
 * How wide the page's content is, in CSS pixels, once the document has loaded. A navigation that a
 * click or a redirect started is not waited for: measured before the stylesheet has arrived, the
 * unstyled markup is wider than any phone.
 */
export async function pageWidth(page: Page) {
  await page.waitForLoadState("load");
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/**
 * The browser's own issue list for the page from now on (as DevTools' Issues panel shows it): a
 * script trying what the Content-Security-Policy forbids (eval, say) is reported there.
 */
export async function browserIssues(page: Page) {
  const issues: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Audits.issueAdded", ({ issue }) => issues.push(JSON.stringify(issue)));
  await cdp.send("Audits.enable");
  return issues;
}
