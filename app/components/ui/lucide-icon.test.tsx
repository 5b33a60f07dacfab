import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ComponentType, type SVGProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { appSources } from "#tests/setup/app-sources";
import createLucideIcon, { type IconData } from "./lucide-icon";

const LUCIDE = path.resolve(import.meta.dirname, "../../../node_modules/lucide-react/dist/esm");

/** Every icon app/ imports from lucide-react. */
function importedIcons(): string[] {
  const names = new Set<string>();
  for (const source of appSources()) {
    for (const [, list = ""] of source.matchAll(/^import \{([^}]*)\} from "lucide-react";/gm)) {
      for (const spec of list.split(",").map((s) => s.trim())) if (spec && !spec.startsWith("type ")) names.add(spec.split(/\s+as\s+/)[0]!);
    }
  }
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
      for (const props of [
        {},
        { className: "size-4 text-brand" },
        { "aria-label": "Done", role: "img" },
        { className: "lucide animate-spin", "data-state": "on" },
        { children: createElement("title", null, "Done") },
      ]) {
        const markup = (icon: ComponentType<SVGProps<SVGSVGElement>>) => renderToStaticMarkup(createElement(icon, props));
        expect(markup(ours), name).toBe(markup(lucide[name]!));
      }
    }
  });
});
