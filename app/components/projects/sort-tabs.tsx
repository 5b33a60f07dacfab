import { Link, useLocation } from "react-router";
import { cn } from "~/lib/utils";

export const PROJECT_SORTS = [
  { value: "trending", label: "Trending" },
  { value: "new", label: "New" },
] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number]["value"];

/** The sort switcher: links that keep the other parameters and go back to the first page. */
export function SortTabs({ current }: { current: ProjectSort }) {
  const location = useLocation();
  return (
    <nav aria-label="Sort projects" className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {PROJECT_SORTS.map((sort) => {
        const params = new URLSearchParams(location.search);
        params.set("sort", sort.value);
        params.delete("page");
        return (
          <Link
            key={sort.value}
            to={`${location.pathname}?${params}`}
            aria-current={current === sort.value ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
              current === sort.value ? "bg-background shadow-xs" : "text-muted-foreground hover:text-foreground",
            )}
          >
            {sort.label}
          </Link>
        );
      })}
    </nav>
  );
}
