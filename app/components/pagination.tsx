import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";

/** Previous / next links that keep the other query parameters; pages are counted from 1. */
export function Pagination({ page, hasMore, pageCount }: { page: number; hasMore: boolean; pageCount?: number }) {
  const location = useLocation();
  const to = (n: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(n));
    return `${location.pathname}?${params}`;
  };
  if (page <= 1 && !hasMore) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-2 pt-4">
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page - 1)} rel="prev">
            <ChevronLeft /> Previous
          </Link>
        </Button>
      ) : (
        <span />
      )}
      <span className="text-sm text-muted-foreground">
        Page {page}
        {pageCount ? ` of ${pageCount}` : ""}
      </span>
      {hasMore ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page + 1)} rel="next">
            Next <ChevronRight />
          </Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The page number from a URL: a positive integer, else 1. */
export function pageParam(url: URL) {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page > 0 ? Math.min(page, 10_000) : 1;
}
