import { cloneElement, isValidElement, type ReactElement, type ReactNode, type Ref } from "react";

type SlotProps = Record<string, unknown> & { children?: ReactNode; ref?: Ref<unknown> };

/**
 * Renders its one child element with these props merged in, so `<Button asChild><Link …/></Button>`
 * is a link that looks like a button. The child's own props win, except that class names are
 * joined, styles are merged, both event handlers run (the child's first) and both refs are set.
 */
export function Slot({ children, ...slotProps }: SlotProps) {
  if (!isValidElement<Record<string, unknown>>(children)) return null;
  return cloneElement(children as ReactElement<Record<string, unknown>>, mergeProps(slotProps, children.props));
}

export function mergeProps(slot: Record<string, unknown>, child: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...slot, ...child };
  for (const [name, slotValue] of Object.entries(slot)) {
    const childValue = child[name];
    if (childValue === undefined) merged[name] = slotValue;
    else if (/^on[A-Z]/.test(name) && typeof slotValue === "function" && typeof childValue === "function") {
      merged[name] = (...args: unknown[]) => {
        const result = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (name === "className") merged[name] = [slotValue, childValue].filter(Boolean).join(" ");
    else if (name === "style") merged[name] = { ...(slotValue as object), ...(childValue as object) };
    else if (name === "ref") merged[name] = composeRefs(slotValue as Ref<unknown>, childValue as Ref<unknown>);
  }
  return merged;
}

function composeRefs(...refs: Ref<unknown>[]) {
  return (node: unknown) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === "function") return ref(node);
      if (ref) ref.current = node;
    });
    return () =>
      refs.forEach((ref, i) => {
        const cleanup = cleanups[i];
        if (typeof cleanup === "function") cleanup();
        else if (typeof ref === "function") ref(null);
        else if (ref) ref.current = null;
      });
  };
}
