import { NavLink } from "react-router";
import { cn } from "~/lib/utils";

/** Links between the sections of one area (Settings, the operators' screens), the current one marked. */
export function SectionNav({ label, links, className }: { label: string; links: { to: string; label: string }[]; className?: string }) {
  return (
    <nav aria-label={label} className={cn("flex flex-wrap gap-1", className)}>
      {links.map(({ to, label: text }) => (
        <NavLink
          key={to}
          to={to}
          className={({ isActive }) =>
            cn(
              "rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
              isActive && "bg-accent text-foreground",
            )
          }
        >
          {text}
        </NavLink>
      ))}
    </nav>
  );
}
