import { HandCoins } from "lucide-react";
import { CompactList } from "~/components/projects/project-sections";
import { formatDate } from "~/components/projects/roles";
import { route } from "~/lib/routes";
import type { AirdropCardData } from "~/modules/airdrops/airdrop-pages";
import { AirdropPhaseBadge, shareLine } from "./airdrop-status";

/** A project's airdrops on its page: name, state, what it pays and when. */
export function AirdropList({ airdrops }: { airdrops: AirdropCardData[] }) {
  return (
    <CompactList
      icon={HandCoins}
      empty="No airdrops yet"
      items={airdrops.map((a) => ({
        id: a.id,
        to: route("airdrops.show", { project: a.project.slug, airdrop: a.slug }),
        name: a.name,
        badge: <AirdropPhaseBadge phase={a.phase} />,
        line: `${shareLine(a)} · ${formatDate(a.startsAt)} – ${formatDate(a.endsAt)}`,
      }))}
    />
  );
}
