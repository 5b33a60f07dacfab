import fc from "fast-check";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { appSources } from "#tests/setup/app-sources";
import { mergeClasses } from "./class-names";

/**
 * Every word inside a string literal of app/'s source that tailwind-merge or mergeClasses takes
 * for a class (a word either one de-duplicates): our class vocabulary, and some other words.
 */
function vocabulary(): string[] {
  const words = new Set<string>();
  for (const source of appSources()) {
    if (source.includes("export function mergeClasses")) continue;
    for (const [, double = "", back = "", single = ""] of source.matchAll(/"([^"\n]*)"|`([^`]*)`|'([^'\n]*)'/g)) {
      for (const word of (double + back + single).split(/\s+/)) if (/^[!\w[\-@*&.:/%#()=,>]+$/.test(word)) words.add(word);
    }
  }
  return [...words].filter((word) => twMerge(`${word} ${word}`) === word || mergeClasses(`${word} ${word}`) === word).sort();
}

const words = vocabulary();

describe("mergeClasses", () => {
  it("lets a later class override an earlier one of the same group, under the same variants", () => {
    expect(mergeClasses("h-10 px-4 py-2 text-sm h-8 px-3")).toBe("py-2 text-sm h-8 px-3");
    expect(mergeClasses("p-4 px-2")).toBe("p-4 px-2");
    expect(mergeClasses("px-2 p-4")).toBe("p-4");
    expect(mergeClasses("size-10 h-8")).toBe("size-10 h-8");
    expect(mergeClasses("h-8 size-10")).toBe("size-10");
    expect(mergeClasses("text-sm text-muted-foreground text-lg")).toBe("text-muted-foreground text-lg");
    expect(mergeClasses("border border-input border-2 border-brand")).toBe("border-2 border-brand");
    expect(mergeClasses("rounded-md hover:bg-accent rounded-full hover:bg-muted")).toBe("rounded-full hover:bg-muted");
    expect(mergeClasses("dark:text-white text-black")).toBe("dark:text-white text-black");
    expect(mergeClasses("[&_svg]:size-4 [&_svg]:size-5 unknown-class unknown-class")).toBe("[&_svg]:size-5 unknown-class unknown-class");
  });

  it(`agrees with tailwind-merge on every pair of the ${words.length} classes in app/'s strings`, () => {
    expect(words.length).toBeGreaterThan(300);
    const disagreements: string[] = [];
    for (const word of words) {
      for (const other of words) {
        const classes = `${word} ${other}`;
        if (mergeClasses(classes) !== twMerge(classes)) disagreements.push(`${classes} → ${mergeClasses(classes)}, not ${twMerge(classes)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("agrees with tailwind-merge on any list of those words", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 8 }), (list) => {
        expect(mergeClasses(list.join(" "))).toBe(twMerge(list.join(" ")));
      }),
      { numRuns: 2_000 },
    );
  });
});
