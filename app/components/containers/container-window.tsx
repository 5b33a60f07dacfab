import type { ReactNode } from "react";
import { LocalTime } from "~/components/campaigns/local-time";

/** Under a container's title: its state, its window (start – end, in the reader's zone) and how long until the next change. */
export function ContainerWindow({ badge, startsAt, endsAt, when }: { badge: ReactNode; startsAt: Date | string; endsAt: Date | string; when: string | null }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      {badge}
      <span>
        <LocalTime value={startsAt} /> – <LocalTime value={endsAt} />
      </span>
      {when && <span className="font-medium text-foreground">{when}</span>}
    </span>
  );
}

/** A card's dates line: start – end as dates, and how long until the next change. */
export function WindowDates({ startsAt, endsAt, when }: { startsAt: Date | string; endsAt: Date | string; when: string | null }) {
  return (
    <>
      <LocalTime value={startsAt} dateOnly /> – <LocalTime value={endsAt} dateOnly />
      {when && <span className="text-foreground"> · {when}</span>}
    </>
  );
}
