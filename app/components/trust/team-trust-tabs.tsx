import { Link } from "react-router";
import { cn } from "~/lib/utils";

export type TrustTab = "participants" | "clusters" | "audit";
export type TrustFilter = "flagged" | "all" | "excluded";

const TABS: { tab: TrustTab; label: string }[] = [
  { tab: "participants", label: "Participants" },
  { tab: "clusters", label: "Clusters" },
  { tab: "audit", label: "Audit log" },
];
const FILTERS: { filter: TrustFilter; label: string }[] = [
  { filter: "flagged", label: "Flagged" },
  { filter: "all", label: "All" },
  { filter: "excluded", label: "Excluded" },
];

const pill = (current: boolean) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
    current && "bg-accent text-foreground",
  );

/** The Trust page's sections (Participants, Clusters, Audit log) and, on Participants, its filters: links, so each view has its address. */
export function TeamTrustTabs({ tab, filter }: { tab: TrustTab; filter: TrustFilter }) {
  return (
    <div className="mb-4 grid gap-2">
      <nav aria-label="Trust sections" className="flex flex-wrap gap-1 border-b pb-2">
        {TABS.map((t) => (
          <Link key={t.tab} to={`?tab=${t.tab}`} className={pill(t.tab === tab)} aria-current={t.tab === tab ? "page" : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === "participants" && (
        <nav aria-label="Show participants" className="flex flex-wrap gap-1">
          {FILTERS.map((f) => (
            <Link
              key={f.filter}
              to={`?tab=participants&filter=${f.filter}`}
              className={pill(f.filter === filter)}
              aria-current={f.filter === filter ? "true" : undefined}
            >
              {f.label}
            </Link>
          ))}
        </nav>
      )}
    </div>
  );
}
