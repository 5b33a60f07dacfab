import { useEffect, useRef, useState } from "react";
import { fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { localInputValue, utcInputValue } from "~/modules/tasks/local-datetime";
import { useHydrated } from "./local-time";

/** What a date field starts with: a stored moment, or what the member typed before an error. */
export type DateValue = { at: Date | string } | { typed: string } | null;

/**
 * A `datetime-local` input in the member's time zone. Beside it, `<name>Offset` carries the
 * zone's offset for the chosen date, so the server stores the moment the member meant.
 */
export function DateTimeInput({ id, error, value }: { id: string; error?: string; value: DateValue }) {
  const input = useRef<HTMLInputElement>(null);
  // State, not a value set on the element: React writes a hidden input's default into its value on
  // every render, so an offset set by hand was lost whenever the page drew again (its data reloaded
  // while the member typed) and the time was stored as UTC.
  const [offset, setOffset] = useState("");
  const stored = value && "at" in value ? value.at : null;
  const initial = stored ? utcInputValue(stored) : value && "typed" in value ? value.typed : "";

  const syncOffset = () => {
    const typed = input.current?.value;
    setOffset(typed ? String(new Date(typed).getTimezoneOffset()) : "");
  };

  useEffect(() => {
    // The server rendered a stored moment in UTC; show it in local time now that we know the zone,
    // unless the member already typed over it before the page came alive.
    if (stored && input.current && input.current.value === initial) input.current.value = localInputValue(stored);
    syncOffset();
    // Only once, on mount: later the input holds what the member types.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <Input
        {...fieldProps(id, error)}
        type="datetime-local"
        className="dark:[color-scheme:dark]"
        ref={input}
        defaultValue={initial}
        onChange={syncOffset}
        onInput={syncOffset}
      />
      <input type="hidden" name={`${id}Offset`} value={offset} />
    </>
  );
}

/** "Your time zone: Europe/Paris", once the browser has told us. */
export function TimeZoneHint() {
  const hydrated = useHydrated();
  return hydrated ? <>In your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}).</> : <>In UTC.</>;
}
