import { Link, useLocation } from "react-router";
import { cn } from "~/lib/utils";

export type FilterTab = { value: string; label: string; count?: number };

/** Tabs that set one query parameter (and go back to page 1), keeping the others. */
export function FilterTabs({ param, tabs, current, label }: { param: string; tabs: FilterTab[]; current: string; label: string }) {
  const location = useLocation();
  return (
    <nav aria-label={label} className="-mx-1 overflow-x-auto px-1 pb-1">
      <div className="flex w-full gap-1 rounded-lg bg-muted p-1 sm:inline-flex sm:w-auto">
        {tabs.map((tab) => {
          const params = new URLSearchParams(location.search);
          if (tab.value) params.set(param, tab.value);
          else params.delete(param);
          params.delete("page");
          const search = params.toString();
          const active = current === tab.value;
          return (
            <Link
              key={tab.value}
              to={`${location.pathname}${search ? `?${search}` : ""}`}
              aria-current={active ? "page" : undefined}
              className={cn(
                "inline-flex flex-1 items-center justify-center gap-1.5 rounded-md px-2 py-1.5 text-sm whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring/50 sm:flex-none sm:px-3",
                active ? "bg-background font-medium shadow-xs" : "text-muted-foreground hover:text-foreground",
              )}
            >
              {tab.label}
              {tab.count !== undefined && (
                <span className={cn("rounded-full px-1.5 text-xs tabular-nums", active ? "bg-muted" : "bg-background/60")}>{tab.count}</span>
              )}
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
