import { Route as RouteIcon } from "lucide-react";
import type { ReactNode } from "react";
import { ContainerGrid } from "~/components/containers/container-grid";
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
  return (
    <ContainerGrid items={crusades} empty={{ icon: RouteIcon, title: "No crusades yet", text: emptyText, action: emptyAction }}>
      {(c) => <CrusadeCard crusade={c} signedIn={signedIn} showProject={showProject} />}
    </ContainerGrid>
  );
}
