import { createElement, createRef } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./button";
import { mergeProps } from "./slot";

describe("Button asChild", () => {
  it("renders its child with the button's classes and the child's own props", () => {
    const html = renderToStaticMarkup(
      <Button asChild variant="outline" size="sm">
        <a href="/tasks" className="w-full">
          Tasks
        </a>
      </Button>,
    );
    expect(html).toMatch(/^<a href="\/tasks" class="[^"]*border[^"]*h-8[^"]*w-full">Tasks<\/a>$/);
    expect(html).not.toContain("<button");
  });

  it("renders a button otherwise", () => {
    expect(renderToStaticMarkup(createElement(Button, { pending: true }, "Save"))).toMatch(/^<button[^>]* disabled="" aria-busy="true">.*Save<\/button>$/);
  });
});

describe("mergeProps", () => {
  it("lets the child's props win, joining classes and merging styles", () => {
    expect(mergeProps({ id: "a", className: "x", style: { color: "red", margin: 0 } }, { id: "b", className: "y", style: { color: "blue" } })).toEqual({
      id: "b",
      className: "x y",
      style: { color: "blue", margin: 0 },
    });
    expect(mergeProps({ title: "kept" }, { title: undefined })).toEqual({ title: "kept" });
  });

  it("runs both event handlers, the child's first", () => {
    const calls: string[] = [];
    const merged = mergeProps({ onClick: () => calls.push("slot") }, { onClick: () => calls.push("child") });
    (merged.onClick as () => void)();
    expect(calls).toEqual(["child", "slot"]);
  });

  it("sets both refs, and clears them on detach", () => {
    const objectRef = createRef<string>();
    const callback = vi.fn();
    const merged = mergeProps({ ref: objectRef }, { ref: callback });
    const cleanup = (merged.ref as (node: string) => () => void)("node");
    expect(objectRef.current).toBe("node");
    expect(callback).toHaveBeenCalledWith("node");
    cleanup();
    expect(objectRef.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
  });
});
