import { Monitor, Moon, Sun } from "lucide-react";
import { useAppearance } from "~/hooks/use-appearance";
import type { Appearance } from "~/lib/appearance";
import { cn } from "~/lib/utils";

const OPTIONS: { value: Appearance; label: string; icon: typeof Sun }[] = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
];

/** Light, dark or the device's: kept in a cookie, so it holds before signing in too. `compact` shows icons only. */
export function AppearanceSwitch({ compact = false }: { compact?: boolean }) {
  const { appearance, setAppearance } = useAppearance();
  return (
    <div role="radiogroup" aria-label="Appearance" className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {OPTIONS.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={appearance === value}
          title={compact ? label : undefined}
          onClick={() => setAppearance(value)}
          className={cn(
            "flex items-center gap-2 rounded-md py-1.5 text-sm transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
            compact ? "px-1.5 sm:px-2" : "px-3.5",
            appearance === value ? "bg-background shadow-xs" : "text-muted-foreground hover:text-foreground",
          )}
        >
          <Icon className="size-4" aria-hidden />
          <span className={cn(compact && "sr-only")}>{label}</span>
        </button>
      ))}
    </div>
  );
}
