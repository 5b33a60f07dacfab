export const RECURRENCE_LABELS = { once: "Once", daily: "Daily" } as const;

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** The same on the server and in the browser: task windows and daily periods are in UTC. */
export function formatUtc(date: Date | string) {
  return `${dateFormat.format(new Date(date))} UTC`;
}

/** The window in words, or null when the task is always open. */
export function windowText({ startsAt, endsAt }: { startsAt: Date | null; endsAt: Date | null }, now: Date) {
  if (startsAt && now < new Date(startsAt)) return endsAt ? `${formatUtc(startsAt)} – ${formatUtc(endsAt)}` : `Opens ${formatUtc(startsAt)}`;
  if (endsAt) return now >= new Date(endsAt) ? `Ended ${formatUtc(endsAt)}` : `Until ${formatUtc(endsAt)}`;
  return null;
}

/** Places left under the cap, or null without a cap. */
export function placesLeft({ cap, slotsTaken }: { cap: number | null; slotsTaken: number }) {
  return cap === null ? null : Math.max(cap - slotsTaken, 0);
}

export function placesText(task: { cap: number | null; slotsTaken: number }) {
  const left = placesLeft(task);
  if (left === null) return "No limit";
  if (left === 0) return `Full (${task.cap!.toLocaleString("en")} places)`;
  return `${left.toLocaleString("en")} of ${task.cap!.toLocaleString("en")} places left`;
}
