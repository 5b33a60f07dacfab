import { createRequire } from "node:module";
import path from "node:path";
import { LOCAL_CHAIN_ID } from "./local-chain-id.ts";
import { spawnTied } from "./tied-process.server.ts";

export type LocalChain = { url: string; stop: () => Promise<void> };

function anvilBinary() {
  const require = createRequire(import.meta.url);
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", "anvil");
}

/**
 * Starts the local development chain (anvil from the npm package) on a free loopback port and
 * resolves once it accepts requests. Its state lives as long as the process, and it dies with the
 * process however that ends. `stepsTracing` keeps every mined transaction's steps for
 * `debug_traceTransaction` (contract coverage). `chainId` is the local chain's unless a test stands
 * in for another chain.
 */
export async function startLocalChain({
  timeoutMs = 15_000,
  stepsTracing = false,
  chainId = LOCAL_CHAIN_ID,
}: { timeoutMs?: number; stepsTracing?: boolean; chainId?: number } = {}): Promise<LocalChain> {
  const args = ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(chainId)];
  if (stepsTracing) args.push("--steps-tracing");
  // anvil dies with this process however it ends (tied-process.server.ts).
  const anvil = spawnTied(anvilBinary(), args);
  const { child } = anvil;
  const close = () => void anvil.stop();
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      close();
      reject(new Error(`The local chain did not start within ${timeoutMs} ms: ${output.slice(-500)}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off("data", read);
        child.stdout!.resume();
        resolve(`http://${match[1]}`);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The local chain exited with code ${code}: ${output.slice(-500)}`));
    });
  });
  return {
    url,
    stop: anvil.stop,
  };
}
