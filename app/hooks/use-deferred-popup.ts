import { useState, type SyntheticEvent } from "react";

/**
 * A popup whose code is fetched only when a visitor reaches for its trigger (pointer over it or
 * focus on it), not in the page's first load. Spread `triggerProps` on the trigger, render the
 * popup (React.lazy, in Suspense) once `used`, controlled by `open`/`setOpen`, and give focus
 * back to `returnFocus` when it closes.
 */
export function useDeferredPopup(load: () => Promise<unknown>) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const [returnFocus, setReturnFocus] = useState<HTMLElement | null>(null);
  const triggerProps = {
    "aria-haspopup": "dialog" as const,
    "aria-expanded": open,
    onPointerEnter: () => void load(),
    onFocus: () => void load(),
    onClick: (event: SyntheticEvent) => {
      setReturnFocus(event.currentTarget as HTMLElement);
      setUsed(true);
      setOpen(true);
    },
  };
  return { open, setOpen, used, returnFocus, triggerProps };
}

/** For a dialog's `onCloseAutoFocus`: focus goes back to the element that opened it. */
export const focusBack = (element: HTMLElement | null) => (event: Event) => {
  if (!element?.isConnected) return;
  event.preventDefault();
  element.focus();
};
