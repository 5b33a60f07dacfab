import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FolderInUseError, lockFolder } from "./folder-lock.server";

const folder = () => mkdtempSync(path.join(tmpdir(), "questline-lock-"));

/** A process holding the folder until it is killed; resolves once it holds it. */
async function holderProcess(dir: string) {
  const script = `import { lockFolder } from ${JSON.stringify(new URL("./folder-lock.server.ts", import.meta.url).pathname)};
lockFolder(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  expect(chunk.toString()).toContain("locked");
  return child;
}

describe("the data folder's lock", () => {
  it("refuses a second holder in one line naming the folder and the process, and frees the folder on release", () => {
    const dir = folder();
    const release = lockFolder(dir);
    expect(() => lockFolder(dir)).toThrow(FolderInUseError);
    expect(() => lockFolder(dir)).toThrow(`The data folder ${dir} is in use by process ${process.pid}`);
    release();
    expect(existsSync(path.join(dir, "questline.lock"))).toBe(false);
    lockFolder(dir)();
  });

  it("refuses while another process holds it, and takes it over at once after that process is killed with SIGKILL", async () => {
    const dir = folder();
    const child = await holderProcess(dir);
    expect(() => lockFolder(dir)).toThrow(`is in use by process ${child.pid}`);
    child.kill("SIGKILL");
    await once(child, "exit");
    // Its file is still there, naming a dead process: stale.
    expect(existsSync(path.join(dir, "questline.lock"))).toBe(true);
    lockFolder(dir)();
  });

  it("takes over a file naming no live process, or nothing readable", () => {
    const dir = folder();
    writeFileSync(path.join(dir, "questline.lock"), JSON.stringify({ pid: 2 ** 22 + 12345, started: "1" }));
    lockFolder(dir)();
    writeFileSync(path.join(dir, "questline.lock"), "{half");
    lockFolder(dir)();
  });
});
