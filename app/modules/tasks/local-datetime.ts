/**
 * `datetime-local` inputs carry no time zone. The browser sends the member's UTC offset for each
 * value beside it (`<name>Offset`, minutes as `Date#getTimezoneOffset` gives them), so the server
 * reads the time the member meant; without it the value is taken as UTC.
 */
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** "2026-05-01T10:00" with offset -120 (UTC+2) → "2026-05-01T10:00+02:00". */
export function withOffset(local: string, offsetMinutes: string | null | undefined): string {
  const value = local.trim();
  if (!LOCAL.test(value)) return value;
  const offset = Number(offsetMinutes);
  if (offsetMinutes == null || offsetMinutes === "" || !Number.isInteger(offset) || Math.abs(offset) > 18 * 60) return `${value}Z`;
  const east = -offset;
  const abs = Math.abs(east);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${value}${east >= 0 ? "+" : "-"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Puts each named `datetime-local` value of a form in absolute time, with its offset field. */
export function zoneDateFields(formData: FormData, names: string[]) {
  for (const name of names) {
    const value = formData.get(name);
    if (typeof value === "string") formData.set(name, withOffset(value, formData.get(`${name}Offset`)?.toString()));
  }
  return formData;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A date as a `datetime-local` value in UTC (what the server can render). */
export function utcInputValue(date: Date | string) {
  return new Date(date).toISOString().slice(0, 16);
}

/** A date as a `datetime-local` value in the browser's own time zone. */
export function localInputValue(date: Date | string) {
  const d = new Date(date);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Dates a form may hold: campaigns, crusades and tasks happen between these years. */
export const EARLIEST_YEAR = 2000;
export const LATEST_YEAR = 2100;

/** Whether a date parsed from a form is a real date within the years a form may hold. */
export function isFormDate(date: Date) {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= EARLIEST_YEAR && year <= LATEST_YEAR;
}

export const FORM_DATE_RANGE_MESSAGE = `Enter a date between ${EARLIEST_YEAR} and ${LATEST_YEAR}`;
