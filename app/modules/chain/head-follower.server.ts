import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Logger } from "~/lib/logger.server";

/**
 * The head follower (issue #36): where a chain's node offers a WebSocket, it subscribes to the
 * chain's new heads (`eth_subscribe newHeads`) and tells `onHead` of each one as it comes, so that
 * what waits for a block (the deposit scan) runs at once instead of at its next poll. Opening the
 * socket and every request on it have a deadline; a socket that drops, or stops answering, is
 * opened again after a growing wait, and the head read on each (re)connect is reported too (heads
 * mined meanwhile were missed). It never blocks anything: `onHead` is called and not awaited, and
 * where no WebSocket is configured nothing is followed (the pollers stay as they are).
 */

/** Waits `ms`, or less when `signal` is aborted (then it resolves, it does not throw). Tests inject their own clock. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

const realWait: Wait = (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined);

export type HeadFollowerTiming = {
  /** How long opening the socket, and each request on it, may take before the socket is given up (ms). */
  deadlineMs: number;
  /** The wait before opening the socket again after it dropped or failed; doubled on each failure in a row. */
  firstRetryMs: number;
  /** The longest wait between two tries. */
  maxRetryMs: number;
  /** How often an open socket is asked for the head, to be sure it still answers (a half-open socket says nothing). */
  checkEveryMs: number;
};

export const HEAD_FOLLOWER_TIMING: HeadFollowerTiming = { deadlineMs: 10_000, firstRetryMs: 500, maxRetryMs: 30_000, checkEveryMs: 30_000 };

const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/);

/** One message from the node, checked (it comes from outside): an answer to a request, or a subscription's notification. */
const message = z.union([
  z.object({ id: z.number(), result: z.unknown().optional(), error: z.object({ message: z.string() }).optional() }),
  z.object({
    method: z.literal("eth_subscription"),
    params: z.object({ subscription: z.string(), result: z.object({ number: quantity }) }),
  }),
]);

export type FollowedChain = { id: number; webSocket: string | null };

export type HeadFollowers = {
  /** The chains whose heads are followed (those with a WebSocket endpoint). */
  chainIds: number[];
  /** Closes every socket and stops reconnecting. */
  stop: () => Promise<void>;
};

/** Follows the new heads of each chain that has a WebSocket endpoint; the others are left alone. */
export function followHeads({
  chains,
  onHead,
  logger,
  timing = HEAD_FOLLOWER_TIMING,
  wait = realWait,
}: {
  chains: readonly FollowedChain[];
  /** A new head of `chainId` (or the head when the socket (re)opened). Called, not awaited; must not throw. */
  onHead: (chainId: number, blockNumber: bigint) => void;
  logger: Logger;
  timing?: HeadFollowerTiming;
  wait?: Wait;
}): HeadFollowers {
  const followed = chains.flatMap((chain) => (chain.webSocket ? [{ id: chain.id, url: chain.webSocket }] : []));
  const stopping = new AbortController();
  const loops = followed.map((chain) => followChain({ ...chain, onHead, logger, timing, wait, signal: stopping.signal }));
  return {
    chainIds: followed.map((chain) => chain.id),
    stop: async () => {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}

/** One chain's socket, opened again and again until `signal` is aborted. */
async function followChain({
  id,
  url,
  onHead,
  logger,
  timing,
  wait,
  signal,
}: {
  id: number;
  url: string;
  onHead: (chainId: number, blockNumber: bigint) => void;
  logger: Logger;
  timing: HeadFollowerTiming;
  wait: Wait;
  signal: AbortSignal;
}) {
  const where = { chainId: id, url: withoutSecrets(url) };
  let failures = 0;
  while (!signal.aborted) {
    let subscribed = false;
    try {
      await session({
        url,
        timing,
        wait,
        signal,
        onSubscribed: () => {
          subscribed = true;
          if (failures > 0) logger.info({ ...where, failures }, "following the chain's new heads again");
          else logger.debug(where, "following the chain's new heads");
          failures = 0;
        },
        onHead: (blockNumber) => {
          try {
            onHead(id, blockNumber);
          } catch (err) {
            logger.error({ ...where, err }, "handling a new head failed");
          }
        },
      });
    } catch (err) {
      if (signal.aborted) break;
      failures += 1;
      // The first failure of a streak is a warning; the ones after it, while the node stays away, are not news.
      if (failures === 1) logger.warn({ ...where, err }, "the chain's new heads are not followed for now (its scans poll meanwhile); trying again");
      else logger.debug({ ...where, err, failures }, "the chain's WebSocket is still away");
    }
    if (signal.aborted) break;
    // A socket that was up and dropped is opened again soon; one that keeps failing, less and less often.
    const retryMs = subscribed ? timing.firstRetryMs : Math.min(timing.maxRetryMs, timing.firstRetryMs * 2 ** Math.min(failures - 1, 20));
    await wait(retryMs, signal);
  }
}

class SocketClosed extends Error {
  override name = "SocketClosed";
}

/**
 * One socket's life: open, subscribe, report the head, then report each new head and check every
 * `checkEveryMs` that the node still answers. Returns when the socket closes (rejects with why).
 */
async function session({
  url,
  timing,
  wait,
  signal,
  onSubscribed,
  onHead,
}: {
  url: string;
  timing: HeadFollowerTiming;
  wait: Wait;
  signal: AbortSignal;
  onSubscribed: () => void;
  onHead: (blockNumber: bigint) => void;
}): Promise<void> {
  const ended = new AbortController();
  const socket = new WebSocket(url);
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let subscription: string | null = null;
  let nextId = 1;
  const closed = new Promise<never>((_, reject) => {
    const close = (error: Error) => {
      ended.abort();
      for (const request of pending.values()) request.reject(error);
      pending.clear();
      reject(error);
    };
    socket.addEventListener("close", (event) => close(new SocketClosed(`the socket closed (${event.code}${event.reason ? ` ${event.reason}` : ""})`)));
    socket.addEventListener("error", () => close(new SocketClosed("the socket failed")));
  });
  closed.catch(() => undefined);
  socket.addEventListener("message", (event) => {
    let parsed: z.infer<typeof message>;
    try {
      parsed = message.parse(JSON.parse(String(event.data)));
    } catch {
      return; // Not a message this follower asked for: ignored.
    }
    if ("method" in parsed) {
      if (parsed.params.subscription === subscription) onHead(BigInt(parsed.params.result.number));
      return;
    }
    const request = pending.get(parsed.id);
    pending.delete(parsed.id);
    if (parsed.error) request?.reject(new Error(`the node refused: ${parsed.error.message}`));
    else request?.resolve(parsed.result);
  });
  /** Resolves with `work`'s value, or rejects when the deadline passes first, the socket closes, or the follower stops. */
  const withinDeadline = async <T>(what: string, work: Promise<T>): Promise<T> => {
    const deadline = new AbortController();
    const both = AbortSignal.any([deadline.signal, signal]);
    try {
      return await Promise.race([
        work,
        closed,
        wait(timing.deadlineMs, both).then(() => {
          throw new Error(signal.aborted ? "stopped" : `${what} took longer than ${timing.deadlineMs} ms`);
        }),
      ]);
    } finally {
      deadline.abort();
    }
  };
  const request = (method: string, params: unknown[]) =>
    withinDeadline(
      method,
      new Promise<unknown>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      }),
    );
  try {
    await withinDeadline("opening the socket", new Promise<void>((resolve) => socket.addEventListener("open", () => resolve(), { once: true })));
    subscription = z.string().parse(await request("eth_subscribe", ["newHeads"]));
    onSubscribed();
    onHead(BigInt(quantity.parse(await request("eth_blockNumber", []))));
    const both = AbortSignal.any([ended.signal, signal]);
    while (!both.aborted) {
      await wait(timing.checkEveryMs, both);
      if (both.aborted) break;
      await request("eth_blockNumber", []);
    }
    if (!signal.aborted) await closed;
  } finally {
    socket.close();
  }
}

/** A node's URL as logged: a provider's key in its path or query is left out. */
function withoutSecrets(url: string) {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}
