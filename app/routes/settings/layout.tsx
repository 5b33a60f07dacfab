import { NavLink, Outlet } from "react-router";
import { PageHeader } from "~/components/page-header";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";

const SECTIONS = [
  { to: route("settings.profile"), label: "Profile" },
  { to: route("settings.password"), label: "Password" },
  { to: route("settings.appearance"), label: "Appearance" },
  { to: route("settings.leaderboard"), label: "Leaderboard" },
  { to: route("settings.speedometer"), label: "Speedometer" },
  { to: route("settings.starboard"), label: "Starboard" },
];

export default function SettingsLayout() {
  return (
    <>
      <PageHeader title="Settings" description="Your profile, sign-in, appearance and progress." />
      <div className="flex flex-col gap-6 md:flex-row">
        <nav aria-label="Settings" className="flex flex-wrap gap-1 md:w-48 md:flex-col md:flex-nowrap">
          {SECTIONS.map(({ to, label }) => (
            <NavLink
              key={to}
              to={to}
              className={({ isActive }) =>
                cn(
                  "rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground hover:bg-accent hover:text-foreground",
                  isActive && "bg-accent text-foreground",
                )
              }
            >
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
    </>
  );
}
