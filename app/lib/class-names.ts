/**
 * Tailwind class merging for `cn`: where two classes set the same thing under the same variants,
 * the later one wins, so a component's caller can override its defaults
 * (`mergeClasses("h-10 px-4 text-sm", "h-8 text-muted-foreground")` → `"px-4 text-sm h-8 text-muted-foreground"`).
 *
 * tailwind-merge does this for every Tailwind utility, but its configuration costs 8 KiB of
 * compressed JavaScript on every page (decision 015). These rules cover the groups our own classes
 * use; class-names.test.ts checks that they agree with tailwind-merge on every pair of classes
 * written in app/, so a class from a group not covered here fails that test rather than a screen.
 */

/** [pattern, group]: the first pattern matching a class (its leading `-` removed) names its group. */
const GROUPS: Array<[RegExp, string]> = [
  [/^(block|inline|inline-block|inline-flex|inline-grid|flex|grid|hidden|table|contents|flow-root)$/, "display"],
  [/^(static|fixed|absolute|relative|sticky)$/, "position"],
  [/^(visible|invisible|collapse)$/, "visibility"],
  [/^(uppercase|lowercase|capitalize|normal-case)$/, "text-transform"],
  [/^(underline|overline|line-through|no-underline)$/, "text-decoration"],
  [/^(truncate|text-ellipsis|text-clip)$/, "text-overflow"],
  [/^(sr-only|not-sr-only)$/, "sr"],
  [/^text-(xs|sm|base|lg|\d?xl|\[\d[^\]]*\])(\/.+)?$/, "font-size"],
  [/^text-(left|center|right|justify|start|end)$/, "text-align"],
  [/^text-(wrap|nowrap|balance|pretty)$/, "text-wrap"],
  [/^text-/, "text-color"],
  [/^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\d+)$/, "font-weight"],
  [/^font-/, "font-family"],
  [/^leading-/, "leading"],
  [/^tracking-/, "tracking"],
  [/^line-clamp-/, "line-clamp"],
  [/^list-(inside|outside)$/, "list-position"],
  [/^list-/, "list-style-type"],
  [/^underline-offset-/, "underline-offset"],
  [/^whitespace-/, "whitespace"],
  [/^break-(normal|words|all|keep)$/, "word-break"],
  [/^wrap-/, "overflow-wrap"],
  [/^align-/, "vertical-align"],
  [/^([mp][xytrblse]?)-/, "$1"],
  [/^gap(-[xy])?-/, "gap$1"],
  [/^space-([xy])-/, "space-$1"],
  [/^(size|min-w|min-h|max-w|max-h|w|h)-/, "$1"],
  [/^inset(-[xy])?-/, "inset$1"],
  [/^(top|right|bottom|left|start|end)-/, "$1"],
  [/^z-/, "z"],
  [/^flex-(row|col)(-reverse)?$/, "flex-direction"],
  [/^flex-(wrap|nowrap|wrap-reverse)$/, "flex-wrap"],
  [/^flex-/, "flex"],
  [/^(grow|shrink)(-.+)?$/, "$1"],
  [/^basis-/, "basis"],
  [/^grid-cols-/, "grid-cols"],
  [/^grid-rows-/, "grid-rows"],
  [/^grid-flow-/, "grid-flow"],
  [/^col-(span-|auto$)/, "col-start-end"],
  [/^(col|row)-(start|end)-/, "$1-$2"],
  [/^row-(span-|auto$)/, "row-start-end"],
  [/^items-/, "align-items"],
  [/^justify-(items|self)-/, "justify-$1"],
  [/^justify-/, "justify-content"],
  [/^self-/, "align-self"],
  [/^content-(normal|center|start|end|between|around|evenly|baseline|stretch)$/, "align-content"],
  [/^order-/, "order"],
  [/^place-(items|self|content)-/, "place-$1"],
  [/^overflow(-[xy])?-/, "overflow$1"],
  [/^object-(contain|cover|fill|none|scale-down)$/, "object-fit"],
  [/^rounded(-(?:tl|tr|bl|br|ss|se|es|ee|[tblrse]))?(-|$)/, "rounded$1"],
  [/^border-(solid|dashed|dotted|double|hidden|none)$/, "border-style"],
  [/^border(-[xytrblse])?(-\d+|-\[\d[^\]]*\])?$/, "border-w$1"],
  [/^border(-[xytrblse])?-/, "border-color$1"],
  [/^ring(-\d+|-\[\d[^\]]*\])?$/, "ring-w"],
  [/^ring-offset-/, "ring-offset"],
  [/^ring-/, "ring-color"],
  [/^outline(-\d+)?$/, "outline-w"],
  [/^outline-(none|hidden|solid|dashed|dotted|double)$/, "outline-style"],
  [/^outline-offset-/, "outline-offset"],
  [/^outline-/, "outline-color"],
  [/^shadow(-(2xs|xs|sm|md|lg|xl|2xl|none))?$/, "shadow"],
  [/^shadow-/, "shadow-color"],
  [/^bg-(linear|radial|conic|none$)/, "bg-image"],
  [/^bg-/, "bg-color"],
  [/^(from|via|to)-/, "gradient-$1"],
  [/^divide-([xy])(-|$)/, "divide-$1"],
  [/^accent-/, "accent"],
  [/^(translate-[xy])-/, "$1"],
  [/^origin-/, "origin"],
  [/^appearance-(none|auto)$/, "appearance"],
  [/^caption-/, "caption"],
  [/^(tabular|proportional)-nums$/, "numeric-spacing"],
  [/^filter$/, "filter"],
  [/^backdrop-blur(-|$)/, "backdrop-blur"],
  [/^fill-/, "fill"],
  [/^stroke-(\d+|\[\d[^\]]*\])$/, "stroke-w"],
  [/^stroke-/, "stroke"],
  [/^opacity-/, "opacity"],
  [/^cursor-/, "cursor"],
  [/^pointer-events-/, "pointer-events"],
  [/^select-/, "select"],
  [/^transition(-.+)?$/, "transition"],
  [/^duration-/, "duration"],
  [/^ease-/, "ease"],
  [/^animate-(spin|ping|pulse|bounce|none|\[.+\])$/, "animate"],
];

const SIDES: Record<string, string[]> = { "": ["x", "y", "t", "r", "b", "l", "s", "e"], x: ["r", "l"], y: ["t", "b"] };

/** A group → the groups it also overrides, as in Tailwind's CSS (`p-2` sets `px`; `size-4` sets `w` and `h`). */
const CONFLICTS: Record<string, string[]> = {
  size: ["w", "h"],
  gap: ["gap-x", "gap-y"],
  overflow: ["overflow-x", "overflow-y"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left", "start", "end"],
  "inset-x": ["right", "left"],
  "inset-y": ["top", "bottom"],
  "font-size": ["leading"],
  "line-clamp": ["display", "overflow"],
  flex: ["basis", "grow", "shrink"],
  rounded: ["tl", "tr", "bl", "br", "ss", "se", "es", "ee", ..."tblrse"].map((corner) => `rounded-${corner}`),
  "rounded-t": ["rounded-tl", "rounded-tr"],
  "rounded-b": ["rounded-bl", "rounded-br"],
  "rounded-l": ["rounded-tl", "rounded-bl"],
  "rounded-r": ["rounded-tr", "rounded-br"],
};
for (const [side, covered] of Object.entries(SIDES)) {
  for (const prefix of ["p", "m"]) CONFLICTS[prefix + side] = covered.map((s) => prefix + s);
  for (const prefix of ["border-w", "border-color"]) CONFLICTS[prefix + (side && `-${side}`)] = covered.map((s) => `${prefix}-${s}`);
}

function groupOf(utility: string): string | undefined {
  const name = utility.replace(/^-/, "");
  for (const [pattern, group] of GROUPS) {
    const match = pattern.exec(name);
    if (match) return group.replace("$1", match[1] ?? "").replace("$2", match[2] ?? "");
  }
  return undefined;
}

/** Splits `md:hover:!px-4` into its variants (`hover:md:`, sorted) and utility (`px-4`, important). */
function parse(className: string) {
  let depth = 0;
  let start = 0;
  const variants: string[] = [];
  for (let i = 0; i < className.length; i++) {
    const char = className[i];
    if (char === "[") depth++;
    else if (char === "]") depth--;
    else if (char === ":" && depth === 0) {
      variants.push(className.slice(start, i));
      start = i + 1;
    }
  }
  let utility = className.slice(start);
  const important = utility.startsWith("!") || utility.endsWith("!");
  if (important) utility = utility.replace(/^!|!$/g, "");
  return { scope: `${variants.sort().join(":")}${important ? "!" : ""}|`, utility };
}

/**
 * On the server, merged lists by their input: the lists are nearly all written in the code, so the
 * server's renders merge each one once per process. Bounded for the few built from data. The
 * browser renders a page once, and does without (the code is left out of its bundle).
 */
const merged = import.meta.env.SSR ? new Map<string, string>() : null;
const MERGED_LIMIT = 5_000;

/** Keeps, of the classes that set the same thing under the same variants, the last. */
export function mergeClasses(classes: string): string {
  if (!merged) return merge(classes);
  let result = merged.get(classes);
  if (result === undefined) {
    if (merged.size >= MERGED_LIMIT) merged.clear();
    result = merge(classes);
    merged.set(classes, result);
  }
  return result;
}

function merge(classes: string): string {
  const taken = new Set<string>();
  const kept: string[] = [];
  const list = classes.split(/\s+/).filter(Boolean);
  for (let i = list.length - 1; i >= 0; i--) {
    const className = list[i]!;
    const { scope, utility } = parse(className);
    const group = groupOf(utility);
    if (group === undefined) {
      kept.push(className);
      continue;
    }
    if (taken.has(scope + group)) continue;
    kept.push(className);
    for (const overridden of [group, ...(CONFLICTS[group] ?? [])]) taken.add(scope + overridden);
  }
  return kept.reverse().join(" ");
}
