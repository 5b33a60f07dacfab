/**
 * A small HTTP API that drives running social fakes from another process (the Playwright tests
 * drive the fakes that playwright.config.ts starts through tests/fakes/social/serve.ts). Listens
 * on 127.0.0.1 only:
 *
 *   GET  /health                        200 {status:"ok"}
 *   POST /__control/<command>           body: the command's arguments as a JSON array; 200 {result}
 *        nextAccount, issueToken, revoke, failNext, reset, x.addUsers, x.setFollowing, x.setLikes,
 *        x.setReposts, x.addPosts, youtube.setSubscriptions, tiktok.setVideos, instagram.setMedia
 *        (the methods of `SocialFakes`, with the same arguments; a fault's `resetAt` as ISO text)
 *   GET  /__control/requests            {apiRequests, tokenRequests}: every request the fakes answered
 *
 * A command that is not known answers 404; arguments that are not a JSON array, or a provider that
 * is not one of the four, 400.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FakeProvider } from "./endpoints.ts";
import { readBody } from "./http.ts";
import type { FakeFault, SocialFakes } from "./social-fakes.ts";
import { PROVIDERS } from "./state.ts";

export const CONTROL_PREFIX = "/__control/";

/** The commands, by name: the fakes' methods with their arguments as they travel in JSON. */
export type ControlCommands = {
  nextAccount: Parameters<SocialFakes["nextAccount"]>;
  issueToken: Parameters<SocialFakes["issueToken"]>;
  revoke: Parameters<SocialFakes["revoke"]>;
  failNext: [provider: FakeProvider, fault: JsonFault, options?: { times?: number; path?: string }];
  reset: [];
  "x.addUsers": Parameters<SocialFakes["x"]["addUsers"]>;
  "x.setFollowing": Parameters<SocialFakes["x"]["setFollowing"]>;
  "x.setLikes": Parameters<SocialFakes["x"]["setLikes"]>;
  "x.setReposts": Parameters<SocialFakes["x"]["setReposts"]>;
  "x.addPosts": Parameters<SocialFakes["x"]["addPosts"]>;
  "youtube.setSubscriptions": Parameters<SocialFakes["youtube"]["setSubscriptions"]>;
  "tiktok.setVideos": Parameters<SocialFakes["tiktok"]["setVideos"]>;
  "instagram.setMedia": Parameters<SocialFakes["instagram"]["setMedia"]>;
};
export type ControlCommand = keyof ControlCommands;

/** A fault as JSON carries it: a rate limit's reset moment as ISO text. */
export type JsonFault = Exclude<FakeFault, { kind: "rate_limited" }> | (Omit<Extract<FakeFault, { kind: "rate_limited" }>, "resetAt"> & { resetAt?: string });

class BadRequest extends Error {}

const provider = (value: unknown): FakeProvider => {
  if (!(PROVIDERS as readonly unknown[]).includes(value)) throw new BadRequest(`unknown provider ${JSON.stringify(value)}`);
  return value as FakeProvider;
};

/** Each command applied to the fakes; what it returns is sent back as `result`. */
function commands(fakes: SocialFakes): { [C in ControlCommand]: (...args: ControlCommands[C]) => unknown } {
  return {
    nextAccount: (p, account, options) => fakes.nextAccount(provider(p), account, options),
    issueToken: (p, account, options) => fakes.issueToken(provider(p), account, options),
    revoke: (p, accountId) => fakes.revoke(provider(p), accountId),
    failNext: (p, fault, options) =>
      fakes.failNext(provider(p), fault.kind === "rate_limited" ? { ...fault, resetAt: fault.resetAt ? new Date(fault.resetAt) : undefined } : fault, options),
    reset: () => fakes.reset(),
    "x.addUsers": (...users) => fakes.x.addUsers(...users),
    "x.setFollowing": (accountId, targetIds) => fakes.x.setFollowing(accountId, targetIds),
    "x.setLikes": (accountId, postIds) => fakes.x.setLikes(accountId, postIds),
    "x.setReposts": (postId, userIds) => fakes.x.setReposts(postId, userIds),
    "x.addPosts": (...posts) => fakes.x.addPosts(...posts),
    "youtube.setSubscriptions": (channelId, subscriptions) => fakes.youtube.setSubscriptions(channelId, subscriptions),
    "tiktok.setVideos": (openId, videos) => fakes.tiktok.setVideos(openId, videos),
    "instagram.setMedia": (userId, media) => fakes.instagram.setMedia(userId, media),
  };
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body ?? null));
}

/** Answers the control API's requests for `fakes`. */
export function controlHandler(fakes: SocialFakes) {
  const table = commands(fakes) as Record<string, (...args: unknown[]) => unknown>;
  return async (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
    if (pathname === "/health" && req.method === "GET") return reply(res, 200, { status: "ok" });
    if (pathname === `${CONTROL_PREFIX}requests` && req.method === "GET") {
      return reply(res, 200, { apiRequests: fakes.apiRequests, tokenRequests: fakes.tokenRequests });
    }
    const name = pathname.startsWith(CONTROL_PREFIX) ? pathname.slice(CONTROL_PREFIX.length) : null;
    const command = name !== null && Object.hasOwn(table, name) ? table[name]! : null;
    if (!command) return reply(res, 404, { error: `no such command: ${pathname}` });
    if (req.method !== "POST") return reply(res, 405, { error: "POST a JSON array of arguments" });
    try {
      const raw = await readBody(req);
      const args: unknown = raw.trim() ? JSON.parse(raw) : [];
      if (!Array.isArray(args)) throw new BadRequest("the body is the command's arguments, as a JSON array");
      return reply(res, 200, { result: command(...args) ?? null });
    } catch (error) {
      const bad = error instanceof BadRequest || error instanceof SyntaxError;
      return reply(res, bad ? 400 : 500, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}

/** Serves the control API for `fakes` on 127.0.0.1:`port`. */
export async function startSocialControl(fakes: SocialFakes, { port }: { port: number }): Promise<Server> {
  const handle = controlHandler(fakes);
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}
