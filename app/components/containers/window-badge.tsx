import { Badge } from "~/components/ui/badge";

export type WindowTone = "outline" | "warning" | "success" | "secondary" | "brand";

/** A container's state as a badge; a running one (`live`) carries a dot. */
export function WindowBadge({ tone, label, live = false }: { tone: WindowTone; label: string; live?: boolean }) {
  return (
    <Badge variant={tone}>
      {live && <span className="size-1.5 rounded-full bg-current" aria-hidden />}
      {label}
    </Badge>
  );
}
