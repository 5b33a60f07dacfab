import { Route as RouteIcon } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "~/components/empty-state";
import { CrusadeCard, type CrusadeCardData } from "./crusade-card";

export function CrusadeGrid({
  crusades,
  signedIn,
  showProject = true,
  emptyText,
  emptyAction,
}: {
  crusades: CrusadeCardData[];
  signedIn: boolean;
  showProject?: boolean;
  emptyText: ReactNode;
  emptyAction?: ReactNode;
}) {
  if (crusades.length === 0) {
    return (
      <EmptyState icon={RouteIcon} title="No crusades yet" action={emptyAction}>
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {crusades.map((c) => (
        <li key={c.id} className="grid">
          <CrusadeCard crusade={c} signedIn={signedIn} showProject={showProject} />
        </li>
      ))}
    </ul>
  );
}
