import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { keptSecret } from "./kept-secret.server";

it("generates a secret once and gives it back after", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "questline-secret-")), "secret");
  const first = keptSecret(file, () => "one");
  expect(first).toBe("one");
  expect(keptSecret(file, () => "two")).toBe("one");
});

it("gives processes started together on one folder the same secret", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "questline-secret-"));
  const file = path.join(dir, "secret");
  const script = `import { keptSecret } from ${JSON.stringify(path.resolve("app/lib/kept-secret.server.ts"))};
    process.stdout.write(keptSecret(${JSON.stringify(file)}, () => String(process.pid)));`;
  const run = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
    });
  const secrets = await Promise.all(Array.from({ length: 6 }, run));
  expect(new Set(secrets).size).toBe(1);
  expect(readdirSync(dir)).toEqual(["secret"]);
});
