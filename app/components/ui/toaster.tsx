import { CircleAlert, CircleCheck, X } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "~/lib/utils";

/**
 * Short-lived notices at the top of the page: `toast.success("Saved")`, `toast.error("…")`.
 * Errors are announced assertively, successes politely; a notice stays while hovered or focused
 * and can be dismissed with its close button or Escape.
 */

type Tone = "success" | "error";
type Notice = { id: number; key: string | null; tone: Tone; message: string; description: string | null };
/** `id`: a notice with the same id replaces the one shown; `description`: a second, quieter line. */
type Options = { id?: string; description?: string };

const VISIBLE_MS = 4_000;
const MAX_SHOWN = 3;

let notices: Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: Notice[]) {
  notices = next;
  for (const listener of listeners) listener();
}

function show(tone: Tone, message: string, options: Options = {}) {
  const id = nextId++;
  const key = options.id ?? null;
  const description = options.description ?? null;
  const others = key === null ? notices : notices.filter((notice) => notice.key !== key);
  publish([...others, { id, key, tone, message, description }].slice(-MAX_SHOWN));
  return id;
}

function dismiss(id: number) {
  publish(notices.filter((notice) => notice.id !== id));
}

export const toast = {
  success: (message: string, options?: Options) => show("success", message, options),
  error: (message: string, options?: Options) => show("error", message, options),
  dismiss,
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const NONE: Notice[] = [];

export function Toaster() {
  const shown = useSyncExternalStore(
    subscribe,
    () => notices,
    () => NONE,
  );
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3">
      <div aria-live="polite" className="flex w-full flex-col items-center gap-2">
        {shown
          .filter((n) => n.tone === "success")
          .map((notice) => (
            <Toast key={notice.id} notice={notice} />
          ))}
      </div>
      <div aria-live="assertive" className="flex w-full flex-col items-center gap-2">
        {shown
          .filter((n) => n.tone === "error")
          .map((notice) => (
            <Toast key={notice.id} notice={notice} />
          ))}
      </div>
    </section>
  );
}

function Toast({ notice }: { notice: Notice }) {
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => dismiss(notice.id), VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [held, notice.id]);

  const Icon = notice.tone === "success" ? CircleCheck : CircleAlert;
  return (
    <div
      ref={ref}
      data-tone={notice.tone}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!ref.current?.contains(event.relatedTarget as Node | null)) setHeld(false);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") dismiss(notice.id);
      }}
      className={cn(
        "pointer-events-auto flex w-full max-w-sm items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm shadow-lg",
        "motion-safe:animate-in motion-safe:fade-in motion-safe:slide-in-from-top-2",
        notice.tone === "success"
          ? "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
          : "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100",
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1 break-words">
        <p className="font-medium">{notice.message}</p>
        {notice.description && <p className="mt-0.5 opacity-80">{notice.description}</p>}
      </div>
      <button
        type="button"
        onClick={() => dismiss(notice.id)}
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
        aria-label="Close notification"
      >
        <X className="size-3.5" aria-hidden />
      </button>
    </div>
  );
}
