import { once } from "node:events";
import { expect, it } from "vitest";
import { spawnTied } from "./tied-process.server";

it("ends with the command's own status when the command ends by itself", async () => {
  const tied = spawnTied("sh", ["-c", "exit 7"]);
  const [code] = (await once(tied.child, "exit")) as [number];
  expect(code).toBe(7);
  await tied.stop();
});

it("stops the command when asked, and names its pid meanwhile", async () => {
  const tied = spawnTied("sleep", ["30"]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const pid = tied.commandPid();
  expect(pid).toBeGreaterThan(0);
  await tied.stop();
  expect(() => process.kill(pid!, 0)).toThrow();
});

it("kills a command that does not end when asked, once its grace period is over", async () => {
  const tied = spawnTied(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { graceMs: 300 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const pid = tied.commandPid();
  await tied.stop();
  expect(() => process.kill(pid!, 0)).toThrow();
});
