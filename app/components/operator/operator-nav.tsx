import { NavLink } from "react-router";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";

const SCREENS = [
  { to: route("operator.categories"), label: "Categories" },
  { to: route("operator.withdrawals"), label: "Withdrawals" },
  { to: route("operator.deposits"), label: "Deposits" },
];

/** Links between the operators' screens. */
export function OperatorNav() {
  return (
    <nav aria-label="Operator screens" className="flex gap-1 rounded-lg border p-1 text-sm">
      {SCREENS.map(({ to, label }) => (
        <NavLink
          key={to}
          to={to}
          className={({ isActive }) =>
            cn("rounded-md px-3 py-1.5 font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50", isActive ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:text-foreground")
          }
        >
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
