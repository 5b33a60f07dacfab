import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "~/components/empty-state";

export type GridEmpty = { icon: LucideIcon; title: string; text?: ReactNode; action?: ReactNode };

/** Container cards in a responsive grid (one column on phones, three on wide screens), or an empty state. */
export function ContainerGrid<T extends { id: string }>({
  items,
  empty,
  label,
  children: card,
}: {
  items: T[];
  empty: GridEmpty;
  /** The list's accessible name, where a page has more than one. */
  label?: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) {
    return (
      <EmptyState icon={empty.icon} title={empty.title} action={empty.action}>
        {empty.text}
      </EmptyState>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="grid">
          {card(item)}
        </li>
      ))}
    </ul>
  );
}
