import { Outlet } from "react-router";
import { PageHeader } from "~/components/page-header";
import { SectionNav } from "~/components/section-nav";
import { route } from "~/lib/routes";

const SECTIONS = [
  { to: route("settings.profile"), label: "Profile" },
  { to: route("settings.password"), label: "Password" },
  { to: route("settings.connections"), label: "Connections" },
  { to: route("settings.notifications"), label: "Notifications" },
  { to: route("settings.privacy"), label: "Privacy" },
  { to: route("settings.trust"), label: "Trust" },
  { to: route("settings.appearance"), label: "Appearance" },
  { to: route("settings.leaderboard"), label: "Leaderboard" },
  { to: route("settings.speedometer"), label: "Speedometer" },
  { to: route("settings.starboard"), label: "Starboard" },
];

export default function SettingsLayout() {
  return (
    <>
      <PageHeader title="Settings" description="Your profile, sign-in, connected accounts, notifications, privacy, trust, appearance and progress." />
      <div className="flex flex-col gap-6 md:flex-row">
        <SectionNav label="Settings" links={SECTIONS} className="md:w-48 md:flex-col md:flex-nowrap" />
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
    </>
  );
}
