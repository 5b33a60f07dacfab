import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/** False while the server renders and the page hydrates, true afterwards. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

const DATE_TIME: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" };
const DATE: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric" };

/** Formatters by what they show, made once: building one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions) {
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat("en", options)));
  return format;
}

/**
 * A moment in the reader's own time zone, named. The server does not know that zone, so it renders
 * UTC (and says so); the browser switches to local time once the page is live.
 */
export function LocalTime({ value, dateOnly = false }: { value: Date | string; dateOnly?: boolean }) {
  const hydrated = useHydrated();
  const date = new Date(value);
  const options = dateOnly ? DATE : DATE_TIME;
  const kind = dateOnly ? "date" : "date-time";
  // Times say their zone ("10:00 AM EST"), whichever zone renders them.
  const text = hydrated
    ? formatter(`local ${kind}`, dateOnly ? options : { ...options, timeZoneName: "short" }).format(date)
    : `${formatter(`utc ${kind}`, { ...options, timeZone: "UTC" }).format(date)}${dateOnly ? "" : " UTC"}`;
  return (
    <time dateTime={date.toISOString()} title={hydrated ? formatter("local full", { dateStyle: "full", timeStyle: "long" }).format(date) : undefined}>
      {text}
    </time>
  );
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "in 3 days", "2 hours ago": the largest whole unit between two moments. */
export function relativeTime(to: Date | string, now: Date | string) {
  const diff = new Date(to).getTime() - new Date(now).getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === "minute") return RELATIVE.format(Math.trunc(diff / ms), unit);
  }
  return RELATIVE.format(0, "minute");
}
