import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ComponentType, type SVGProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import createLucideIcon, { type IconData } from "./lucide-icon";

const APP = path.resolve(import.meta.dirname, "../..");
const LUCIDE = path.resolve(APP, "../node_modules/lucide-react/dist/esm");

/** Every icon app/ imports from lucide-react. */
function importedIcons(): string[] {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, list = ""] of readFileSync(file, "utf8").matchAll(/^import \{([^}]*)\} from "lucide-react";/gm)) {
          for (const spec of list.split(",").map((s) => s.trim())) if (spec && !spec.startsWith("type ")) names.add(spec.split(/\s+as\s+/)[0]!);
        }
      }
    }
  };
  visit(APP);
  return [...names].sort();
}

/** The module lucide-react's barrel takes `name` from, as the client build's direct imports do. */
function moduleOf(name: string): string {
  const barrel = readFileSync(path.join(LUCIDE, "lucide-react.mjs"), "utf8");
  const line = barrel.split("\n").find((l) => new RegExp(`default as ${name}[,\\s}]`).test(l));
  const file = line && /from '([^']+)'/.exec(line)?.[1];
  if (!file) throw new Error(`lucide-react has no icon ${name}`);
  return path.join(LUCIDE, file);
}

const icons = importedIcons();

describe("createLucideIcon", () => {
  it(`draws the same markup as lucide-react for each of the ${icons.length} icons the app imports`, async () => {
    expect(icons.length).toBeGreaterThan(40);
    const lucide = (await import("lucide-react")) as unknown as Record<string, ComponentType<SVGProps<SVGSVGElement>>>;
    for (const name of icons) {
      const { __iconData } = (await import(moduleOf(name))) as { __iconData: IconData };
      const ours = createLucideIcon(__iconData);
      for (const props of [{}, { className: "size-4 text-brand" }, { "aria-label": "Done", role: "img" }, { className: "lucide animate-spin", "data-state": "on" }]) {
        const markup = (icon: ComponentType<SVGProps<SVGSVGElement>>) => renderToStaticMarkup(createElement(icon, props));
        expect(markup(ours), name).toBe(markup(lucide[name]!));
      }
    }
  });
});
