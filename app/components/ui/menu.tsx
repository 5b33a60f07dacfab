import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "~/lib/utils";
import { PageFallback } from "./page-fallback";

/** The look of a menu entry; give the element `role="menuitem"` and `tabIndex={-1}`. */
export const menuItemClass =
  "flex w-full cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm outline-none select-none hover:bg-accent focus:bg-accent focus:text-accent-foreground [&_svg]:size-4 [&_svg]:text-muted-foreground";

/**
 * A menu button (WAI-ARIA menu button pattern): the button opens a menu below it; arrow keys,
 * Home and End move between entries, Escape closes it and returns to the button, and a click
 * outside or Tab away closes it. The menu stays in the page while closed (hidden), so a form
 * inside it is still there when one of its entries submits it.
 */
export function MenuButton({
  label,
  buttonClassName,
  button,
  header,
  fallback,
  children,
}: {
  /** The button's accessible name. */
  label: string;
  buttonClassName?: string;
  button: ReactNode;
  /** Shown at the top of the open menu, not an entry. */
  header?: ReactNode;
  /** The page the button opens before the page's script has taken over (see PageFallback). */
  fallback?: { action: string; fields?: Record<string, string> };
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    all.at(index % all.length)?.focus();
  };
  const show = (first: "first" | "last" | null) => {
    setOpen(true);
    // The menu is visible after this render: move into it then.
    if (first) requestAnimationFrame(() => focusItem(first === "first" ? 0 : -1));
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const onTriggerKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      show(event.key === "ArrowDown" ? "first" : "last");
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1 + all.length, Home: 0, End: all.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key]!);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  };

  const triggerButton = (
    <button
      ref={trigger}
      type="button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={open}
      aria-controls={menuId}
      className={buttonClassName}
      onClick={() => (open ? close(false) : show(null))}
      onKeyDown={onTriggerKey}
    >
      {button}
    </button>
  );

  return (
    <div ref={wrapper} className="relative">
      {fallback ? <PageFallback {...fallback}>{triggerButton}</PageFallback> : triggerButton}
      <div
        ref={menu}
        id={menuId}
        role="menu"
        aria-label={label}
        hidden={!open}
        onKeyDown={onMenuKey}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('[role="menuitem"]')) setOpen(false);
        }}
        className={cn(
          "absolute top-full right-0 z-50 mt-1 min-w-48 overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md",
          open && "animate-in fade-in-0",
        )}
      >
        {open && header}
        {children}
      </div>
    </div>
  );
}

export function MenuSeparator() {
  return <div role="separator" className="-mx-1 my-1 h-px bg-border" />;
}
