import {
  ArrowLeftRight,
  Coins,
  Gift,
  HandCoins,
  Landmark,
  Flag,
  FolderKanban,
  LayoutDashboard,
  ListChecks,
  Route as RouteIcon,
  Settings,
  Sparkles,
  Store,
  Trophy,
} from "lucide-react";
import { Link, NavLink, useLocation } from "react-router";
import { useAppName } from "~/hooks/root-data";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { useWallet } from "~/wallet/wallet-provider";

const NAV = [
  { to: route("dashboard"), label: "Dashboard", icon: LayoutDashboard, signedIn: true },
  { to: route("projects.index"), label: "Projects", icon: FolderKanban, match: "/projects" },
  { to: route("tasks.index"), label: "Tasks", icon: ListChecks, match: "/tasks" },
  { to: route("campaigns.index"), label: "Campaigns", icon: Flag, match: "/campaigns" },
  { to: route("crusades.index"), label: "Crusades", icon: RouteIcon, match: "/crusades" },
  { to: route("airdrops.mine"), label: "Airdrop", icon: HandCoins, match: "/airdrop" },
  { to: route("leaderboard"), label: "Leaderboard", icon: Trophy },
  { to: route("rewards.index"), label: "Rewards", icon: Gift, signedIn: true, match: "/rewards" },
  { to: route("balance"), label: "Balance", icon: Landmark, signedIn: true },
  { to: route("mint"), label: "Mint", icon: Coins, signedIn: true },
  { to: route("sale"), label: "Token sale", icon: Store, signedIn: true },
  { to: route("swap"), label: "Swap", icon: ArrowLeftRight, walletCloud: true },
  { to: route("settings.profile"), label: "Settings", icon: Settings, match: "/settings", signedIn: true },
];

/** The look of a navigation entry (also the account's entries on the menu page). */
export const navItemClass =
  "flex h-9 w-full items-center gap-3 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50";

export function NavItems({ collapsed = false, signedIn, onNavigate }: { collapsed?: boolean; signedIn: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  // Swaps need the wallet service: without its project id they cannot work, so they are not offered.
  const { cloud } = useWallet();
  return (
    <nav aria-label="Main" className="grid gap-1">
      {NAV.filter((item) => (signedIn || !item.signedIn) && (cloud || !item.walletCloud)).map(({ to, label, icon: Icon, match }) => {
        const active = pathname === to || (match !== undefined && pathname.startsWith(match));
        return (
          <NavLink
            key={to}
            to={to}
            onClick={onNavigate}
            title={collapsed ? label : undefined}
            aria-current={active ? "page" : undefined}
            className={cn(navItemClass, active && "bg-accent text-foreground", collapsed && "justify-center px-0")}
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            <span className={cn(collapsed && "sr-only")}>{label}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}

export function Brand({ collapsed = false }: { collapsed?: boolean }) {
  const appName = useAppName();
  return (
    <Link to={route("welcome")} className="flex items-center gap-2 px-1 font-semibold">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand text-brand-foreground">
        <Sparkles className="size-4" aria-hidden />
      </span>
      <span className={cn(collapsed && "sr-only")}>{appName}</span>
    </Link>
  );
}
