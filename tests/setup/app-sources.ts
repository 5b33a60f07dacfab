import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const APP = path.resolve(import.meta.dirname, "../../app");

/** The text of every TypeScript module in app/ (tests excluded): for tests that check what the app's code uses. */
export function appSources(): string[] {
  return readdirSync(APP, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
}
