import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startLocalChain } from "./local-chain.server";

const blockNumber = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });

/** Whether the chain at `url` stops answering within a few seconds (its process ending is not instant). */
async function goesAway(url: string) {
  for (let i = 0; i < 50; i++) {
    try {
      await blockNumber(url);
    } catch {
      return true;
    }
    await sleep(100);
  }
  return false;
}

describe("the local chain", () => {
  it("answers once started and is gone once stopped", async () => {
    const chain = await startLocalChain();
    expect((await blockNumber(chain.url)).ok).toBe(true);
    await chain.stop();
    expect(await goesAway(chain.url)).toBe(true);
  });

  it("dies with the process that started it, even one killed with SIGKILL", async () => {
    const script = `import { startLocalChain } from ${JSON.stringify(new URL("./local-chain.server.ts", import.meta.url).pathname)};
const chain = await startLocalChain(); console.log(chain.url); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const [chunk] = (await once(child.stdout, "data")) as [Buffer];
    const url = chunk.toString().trim();
    expect((await blockNumber(url)).ok).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(await goesAway(url)).toBe(true);
  });
});
