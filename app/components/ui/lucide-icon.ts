import { createElement, type SVGProps } from "react";

/** An icon module's data in lucide-react (`__iconData` in lucide-react/dist/esm/icons/*.mjs). */
export type IconData = { name: string; size?: number; node: Array<[string, Record<string, string>]>; aliases?: string[] };

/**
 * Turns a lucide icon's data into a React component, drawing the same `<svg>` as lucide-react's
 * own `createLucideIcon` for the props we pass icons (a class name, ARIA attributes, a ref). Both
 * builds use this in its place (vite.config.ts): lucide-react's version supports size, colour and
 * stroke props and a context provider that we do not use, for 2 KiB on every page, and builds each
 * icon's attributes and classes anew on every render, which the server does for every page.
 * lucide-icon.test.ts checks that both draw the same markup for every icon the app imports.
 */
export default function createLucideIcon(icon: IconData) {
  const size = icon.size ?? 24;
  const viewBox = `0 0 ${size} ${size}`;
  const classes = ["lucide", `lucide-${icon.name}`, ...(icon.aliases ?? []).map((alias) => `lucide-${alias}`)];
  // The icon's shapes never change: their markup is written once, and every render (on the server
  // and in the browser) sets it as the <svg>'s content, instead of an element per shape.
  const shapes = { __html: icon.node.map(shapeMarkup).join("") };
  return function LucideIcon({ className, children, ...props }: SVGProps<SVGSVGElement>) {
    const labelled = Boolean(children) || Object.entries(props).some(([name, value]) => /^(aria-|role$|title$)/.test(name) && value != null);
    return createElement(
      "svg",
      {
        xmlns: "http://www.w3.org/2000/svg",
        width: 24,
        height: 24,
        viewBox,
        fill: "none",
        stroke: "currentColor",
        strokeWidth: 2,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: [...new Set([...classes, ...(className ?? "").split(/\s+/)])].filter(Boolean).join(" "),
        ...(labelled ? {} : { "aria-hidden": "true" }),
        ...props,
        ...(children == null ? { dangerouslySetInnerHTML: shapes } : {}),
      },
      // A title or other content of the caller's goes with the shapes as elements.
      ...(children == null ? [] : [...icon.node.map(([tag, attributes]) => createElement(tag, attributes)), children]),
    );
  };
}

/** One shape as React writes it: its attributes but the key (& and " escaped, all a quoted value needs), and an end tag. */
const shapeMarkup = ([tag, attributes]: [string, Record<string, string>]) =>
  `<${tag}${Object.entries(attributes)
    .map(([name, value]) => (name === "key" ? "" : ` ${name}="${String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`))
    .join("")}></${tag}>`;
