import type { BrowserContext, Page } from "@playwright/test";
import type { ControlCommand, ControlCommands } from "../fakes/social/control.ts";
import type { ApiRequestRecord, FakeAccount, TokenRequestRecord } from "../fakes/social/social-fakes.ts";
import type { FakeProvider } from "../fakes/social/endpoints.ts";
import { expect, SAME_ORIGIN } from "./fixtures.ts";
import { uniqueSuffix } from "./quest-helpers.ts";
import { SOCIAL_CONTROL_URL } from "./urls.ts";

/**
 * The social providers' fakes, driven from the tests through their control API
 * (tests/fakes/social/control.ts): who logs in next, what each account follows, posts and
 * subscribes to, failures to answer. The fakes are shared by every test of the run: a test makes
 * its own accounts (`fakeAccount`) instead of resetting them.
 */

async function command<C extends ControlCommand>(name: C, ...args: ControlCommands[C]): Promise<unknown> {
  const response = await fetch(`${SOCIAL_CONTROL_URL}/__control/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = (await response.json()) as { result?: unknown; error?: string };
  if (!response.ok) throw new Error(`social fakes refused ${name}: ${response.status} ${body.error ?? ""}`);
  return body.result;
}

export const socialFakes = {
  /** Who the next authorization on `provider` logs in as (`scopes`: what they grant; default what the app asks). */
  nextAccount: (...args: ControlCommands["nextAccount"]) => command("nextAccount", ...args),
  /** The account's tokens stop working: API calls 401, refresh `invalid_grant`. */
  revoke: (...args: ControlCommands["revoke"]) => command("revoke", ...args),
  /** The provider's next answers (or those of paths starting with `path`) are this failure. */
  failNext: (...args: ControlCommands["failNext"]) => command("failNext", ...args),
  /** Forgets every account, token and datum: only for a test that runs alone. */
  reset: () => command("reset"),
  x: {
    addUsers: (...args: ControlCommands["x.addUsers"]) => command("x.addUsers", ...args),
    setFollowing: (...args: ControlCommands["x.setFollowing"]) => command("x.setFollowing", ...args),
    setLikes: (...args: ControlCommands["x.setLikes"]) => command("x.setLikes", ...args),
    setReposts: (...args: ControlCommands["x.setReposts"]) => command("x.setReposts", ...args),
    addPosts: (...args: ControlCommands["x.addPosts"]) => command("x.addPosts", ...args),
  },
  youtube: { setSubscriptions: (...args: ControlCommands["youtube.setSubscriptions"]) => command("youtube.setSubscriptions", ...args) },
  tiktok: { setVideos: (...args: ControlCommands["tiktok.setVideos"]) => command("tiktok.setVideos", ...args) },
  instagram: { setMedia: (...args: ControlCommands["instagram.setMedia"]) => command("instagram.setMedia", ...args) },
  /** Every request the fakes answered since they started (or were reset). */
  async requests(): Promise<{ apiRequests: Record<FakeProvider, ApiRequestRecord[]>; tokenRequests: Record<FakeProvider, TokenRequestRecord[]> }> {
    const response = await fetch(`${SOCIAL_CONTROL_URL}/__control/requests`);
    expect(response.ok, "the social fakes list their requests").toBe(true);
    return (await response.json()) as Awaited<ReturnType<typeof socialFakes.requests>>;
  },
};

export const PROVIDER_LABELS: Record<FakeProvider, string> = { x: "X", youtube: "YouTube", tiktok: "TikTok", instagram: "Instagram", discord: "Discord" };

let counter = 0;
/** A number no other account of this run has (X, Instagram and TikTok ids are digits). */
export const uniqueNumber = () => `${Date.now()}${String(++counter).padStart(3, "0")}${Math.floor(Math.random() * 1000)}`;

/**
 * An account on `provider` that no other test uses: digits for ids, a handle of at most 15
 * characters (X's limit), a YouTube channel id of UC and 22 characters, a picture on the
 * provider's own CDN (see `serveAvatars`).
 */
export function fakeAccount(provider: FakeProvider, name = "Member", options: Pick<FakeAccount, "accountType"> = {}): FakeAccount {
  const handle = `${name
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .slice(0, 5)}_${uniqueSuffix()}`.slice(0, 15);
  const id = provider === "youtube" ? `UC${uniqueNumber().padEnd(22, "x").slice(0, 22)}` : uniqueNumber();
  const avatarUrl = {
    x: `https://pbs.twimg.com/profile_images/${id}/avatar_normal.png`,
    youtube: `https://yt3.ggpht.com/${id}=s88`,
    tiktok: `https://p16-sign.tiktokcdn.com/${id}.jpeg`,
    instagram: `https://scontent.cdninstagram.com/${id}.jpg`,
    discord: `https://cdn.discordapp.com/avatars/${id}/a${id.slice(-6)}.png`,
  }[provider];
  return {
    id,
    handle,
    name: `${name} ${handle.slice(-4)}`,
    avatarUrl,
    ...(provider === "instagram" ? { accountType: options.accountType ?? "BUSINESS" } : {}),
  };
}

/** The handle as the app shows it: @name, or a YouTube channel's name as it is. */
export const shownHandle = (provider: FakeProvider, account: FakeAccount) => (provider === "youtube" ? account.handle : `@${account.handle}`);

const AVATAR = /^https:\/\/(pbs\.twimg\.com|yt3\.ggpht\.com|[^/]+\.tiktokcdn(-us)?\.com|[^/]+\.cdninstagram\.com|[^/]+\.fbcdn\.net|cdn\.discordapp\.com)\//;

/** The providers' picture CDNs answered from here (the tests run offline): a round mark with the host's first letter. */
export async function serveAvatars(context: BrowserContext) {
  await context.route(AVATAR, (route) => {
    const letter = new URL(route.request().url()).hostname.replace(/^[^.]+\.(?=.*\..*\.)/, "")[0]!.toUpperCase();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" fill="#7c3aed"/><circle cx="24" cy="19" r="9" fill="#ede9fe"/><path d="M8 44c2-9 9-14 16-14s14 5 16 14z" fill="#ede9fe"/><text x="40" y="12" font-size="9" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
    return route.fulfill({ status: 200, contentType: "image/svg+xml", body: svg });
  });
}

/**
 * Connects `account` on `provider` through the real redirect flow: the settings page's Connect
 * button, the provider's authorize endpoint, the app's callback; lands on the provider's page with
 * the handle shown.
 */
export async function connectAccount(page: Page, provider: FakeProvider, account: FakeAccount) {
  const label = PROVIDER_LABELS[provider];
  await page.goto(`/settings/connections/${provider}`);
  await socialFakes.nextAccount(provider, account);
  await page.getByRole("button", { name: `Connect ${label}`, exact: true }).click();
  // Instagram adds `#_` to its redirect, as the real one does; the browser keeps it to the end.
  await expect(page).toHaveURL((url) => url.pathname + url.search === `/settings/connections/${provider}?connected=1`);
  await expect(page.getByTestId("connected-handle")).toHaveText(shownHandle(provider, account));
}

/** A project of a signed-in owner, made over HTTP as its form posts it; returns its address. */
export async function createProject(owner: Page, name: string) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  // The redirect is followed, as a browser would: its page takes the toast it carries.
  const response = await owner.request.post("/projects/new", {
    form: { name, slug, description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" },
    headers: SAME_ORIGIN,
  });
  expect(response.ok() && new URL(response.url()).pathname, "the project is created").toBe(`/projects/${slug}`);
  return slug;
}

/** The type's own fields (without the `config.` prefix of the form's names). */
export type SocialTaskFields = {
  type: string;
  title: string;
  xp?: number;
  verification?: "auto" | "review";
  config: Record<string, string>;
  /** The campaign it counts toward (none by default). */
  campaignId?: string;
};

/**
 * A published task posted as the task form posts it (the form itself is tried once in
 * social-tasks.spec.ts), the redirect to its page followed; returns its id.
 */
export async function createTask(owner: Page, project: string, { type, title, xp = 25, verification = "auto", config, campaignId = "" }: SocialTaskFields) {
  const response = await owner.request.post(`/projects/${project}/tasks/new`, {
    form: {
      title,
      type,
      xp: String(xp),
      verification,
      recurrence: "once",
      description: "",
      startsAt: "",
      endsAt: "",
      cap: "",
      campaignId,
      published: "on",
      ...Object.fromEntries(Object.entries(config).map(([name, value]) => [`config.${name}`, value])),
    },
    headers: SAME_ORIGIN,
  });
  const id = new URL(response.url()).pathname.match(/^\/tasks\/([^/]+)$/)?.[1];
  expect(response.ok() && id, `the ${type} task is created (its page, not ${response.url()})`).toBeTruthy();
  return id!;
}
