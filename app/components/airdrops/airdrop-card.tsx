import { CalendarDays, Coins, HandCoins, ListChecks } from "lucide-react";
import type { ReactNode } from "react";
import { ContainerCard } from "~/components/containers/container-card";
import { ContainerGrid } from "~/components/containers/container-grid";
import { WindowDates } from "~/components/containers/container-window";
import { route } from "~/lib/routes";
import type { AirdropCardData } from "~/modules/airdrops/airdrop-pages";
import { AirdropPhaseBadge, airdropCountdown, shareLine } from "./airdrop-status";

/** An airdrop on an index: what it pays and how, whose, when, how many tasks earn its points; `footer` says where the member stands. */
export function AirdropCard({
  airdrop,
  now,
  showProject = true,
  headingLevel = 2,
  footer,
}: {
  airdrop: AirdropCardData;
  now: Date | string;
  showProject?: boolean;
  headingLevel?: 2 | 3;
  footer?: ReactNode;
}) {
  return (
    <ContainerCard
      to={route("airdrops.show", { project: airdrop.project.slug, airdrop: airdrop.slug })}
      name={airdrop.name}
      description={airdrop.description}
      project={showProject ? airdrop.project : null}
      badge={<AirdropPhaseBadge phase={airdrop.phase} />}
      headingLevel={headingLevel}
      facts={[
        { icon: Coins, label: "Pays", content: shareLine(airdrop) },
        {
          icon: CalendarDays,
          label: "Dates",
          content: <WindowDates startsAt={airdrop.startsAt} endsAt={airdrop.endsAt} when={airdropCountdown(airdrop, now)} />,
        },
        { icon: ListChecks, label: "Tasks", content: `${airdrop.tasks} ${airdrop.tasks === 1 ? "task" : "tasks"}` },
      ]}
      footer={footer}
    />
  );
}

/** Airdrop cards in a responsive grid, or an empty state. */
export function AirdropGrid<T extends AirdropCardData>({
  airdrops,
  now,
  showProject = true,
  headingLevel = 2,
  label,
  empty,
  footer,
}: {
  airdrops: T[];
  now: Date | string;
  showProject?: boolean;
  headingLevel?: 2 | 3;
  label?: string;
  empty: { title: string; text?: ReactNode; action?: ReactNode };
  footer?: (airdrop: T) => ReactNode;
}) {
  return (
    <ContainerGrid items={airdrops} label={label} empty={{ icon: HandCoins, ...empty }}>
      {(a) => <AirdropCard airdrop={a} now={now} showProject={showProject} headingLevel={headingLevel} footer={footer?.(a)} />}
    </ContainerGrid>
  );
}
