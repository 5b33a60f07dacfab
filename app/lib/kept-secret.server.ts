import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A secret generated once and kept in `file`. Processes starting together on one data folder all
 * end up with the same one: each writes its candidate aside and links it into place, which only
 * the first can do; the others read the winner's (never a half-written file).
 */
export function keptSecret(file: string, generate: () => string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const candidate = `${file}.${process.pid}.new`;
  writeFileSync(candidate, generate(), { mode: 0o600 });
  try {
    linkSync(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(candidate);
  }
  return readFileSync(file, "utf8").trim();
}
