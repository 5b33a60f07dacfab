import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createPublicClient, createTestClient, http } from "viem";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { startRpcProxy } from "#tests/setup/rpc-proxy";
import { followHeads, type HeadFollowerTiming, type Wait } from "./head-follower.server";
import { localWebSocketUrl } from "./chain-registry.server";

const TIMING: HeadFollowerTiming = { deadlineMs: 10_000, firstRetryMs: 500, maxRetryMs: 4_000, checkEveryMs: 30_000 };

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(async () => {
  await chain.stop();
});

/** Time as the test moves it: a wait ends when `advance` passes its end (or its signal aborts), never by itself. */
function manualClock() {
  let now = 0;
  const waits = new Set<{ until: number; ms: number; end: () => void }>();
  const watchers = new Set<() => void>();
  const wait: Wait = (ms, signal) =>
    new Promise<void>((resolve) => {
      const entry = {
        until: now + ms,
        ms,
        end: () => {
          waits.delete(entry);
          resolve();
        },
      };
      if (signal.aborted) return resolve();
      signal.addEventListener("abort", entry.end, { once: true });
      waits.add(entry);
      for (const watch of [...watchers]) watch();
    });
  return {
    wait,
    advance(ms: number) {
      now += ms;
      for (const entry of [...waits]) if (entry.until <= now) entry.end();
    },
    /** Resolves once something waits exactly `ms` (a retry's wait, a deadline). */
    waiting: (ms: number) =>
      new Promise<void>((resolve) => {
        const watch = () => {
          if (![...waits].some((entry) => entry.ms === ms)) return;
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
        watch();
      }),
  };
}

/** The heads reported, and a way to wait for one at or past a block. */
function headLog() {
  const seen: Array<{ chainId: number; blockNumber: bigint }> = [];
  const waiters = new Set<{ at: bigint; resolve: () => void }>();
  return {
    seen,
    onHead: (chainId: number, blockNumber: bigint) => {
      seen.push({ chainId, blockNumber });
      for (const waiter of [...waiters])
        if (blockNumber >= waiter.at) {
          waiters.delete(waiter);
          waiter.resolve();
        }
    },
    reached: (at: bigint) =>
      new Promise<void>((resolve) => {
        if (seen.some((head) => head.blockNumber >= at)) return resolve();
        waiters.add({ at, resolve });
      }),
    /** Resolves at the next head reported from now on. */
    next: () => new Promise<void>((resolve) => waiters.add({ at: 0n, resolve })),
  };
}

const mine = async (url: string) => {
  await createTestClient({ chain: anvil, mode: "anvil", transport: http(url) }).mine({ blocks: 1 });
  return createPublicClient({ chain: anvil, transport: http(url) }).getBlockNumber({ cacheTime: 0 });
};

describe("followHeads", () => {
  it("reports the chain's head on subscribing, then each new head as it is mined", async () => {
    const clock = manualClock();
    const heads = headLog();
    const start = mine(chain.url);
    const followers = followHeads({
      chains: [{ id: 31337, webSocket: localWebSocketUrl(chain.url) }],
      onHead: heads.onHead,
      logger: createLogger("silent"),
      timing: TIMING,
      wait: clock.wait,
    });
    try {
      expect(followers.chainIds).toEqual([31337]);
      await heads.reached(await start);
      const mined = await mine(chain.url);
      await heads.reached(mined);
      expect(heads.seen.at(-1)).toEqual({ chainId: 31337, blockNumber: mined });
    } finally {
      await followers.stop();
    }
  });

  it("opens the socket again after it dropped, and reports the head it finds then", async () => {
    const proxy = await startRpcProxy(chain.url);
    const clock = manualClock();
    const heads = headLog();
    const logger = createLogger("silent");
    const warnings = vi.spyOn(logger, "warn");
    const followers = followHeads({
      chains: [{ id: 31337, webSocket: proxy.webSocketUrl }],
      onHead: heads.onHead,
      logger,
      timing: TIMING,
      wait: clock.wait,
    });
    try {
      await heads.reached(await mine(chain.url));
      // The node goes away: the socket drops, and the follower waits its first retry.
      await proxy.stop();
      await clock.waiting(TIMING.firstRetryMs);
      expect(warnings).toHaveBeenCalledTimes(1);
      // A head mined while it was away is reported on reconnecting.
      const missed = await mine(chain.url);
      await proxy.start();
      const reconnected = heads.next();
      clock.advance(TIMING.firstRetryMs);
      await reconnected;
      expect(heads.seen.at(-1)).toEqual({ chainId: 31337, blockNumber: missed });
      const mined = await mine(chain.url);
      await heads.reached(mined);
    } finally {
      await followers.stop();
      await proxy.stop();
    }
  });

  it("gives up a socket that does not open within the deadline, and tries again less and less often", async () => {
    // A node that takes the connection and never answers.
    const connections: Socket[] = [];
    const silent: Server = createServer((socket) => void connections.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const clock = manualClock();
    const followers = followHeads({
      chains: [{ id: 56, webSocket: `ws://127.0.0.1:${port}` }],
      onHead: () => {},
      logger: createLogger("silent"),
      timing: TIMING,
      wait: clock.wait,
    });
    try {
      await clock.waiting(TIMING.deadlineMs);
      clock.advance(TIMING.deadlineMs);
      await clock.waiting(TIMING.firstRetryMs);
      await vi.waitFor(() => expect(connections).toHaveLength(1));
      clock.advance(TIMING.firstRetryMs);
      await clock.waiting(TIMING.deadlineMs);
      clock.advance(TIMING.deadlineMs);
      // Twice the wait after the second failure in a row.
      await clock.waiting(TIMING.firstRetryMs * 2);
      await vi.waitFor(() => expect(connections).toHaveLength(2));
    } finally {
      await followers.stop();
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("follows nothing where no WebSocket is configured", async () => {
    const followers = followHeads({ chains: [{ id: 56, webSocket: null }], onHead: () => {}, logger: createLogger("silent") });
    expect(followers.chainIds).toEqual([]);
    await followers.stop();
  });
});
