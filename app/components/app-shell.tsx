import { Flag, FolderKanban, LayoutDashboard, ListChecks, LogOut, Menu, PanelLeftClose, PanelLeftOpen, Route as RouteIcon, Settings, Sparkles, Trophy } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { UserAvatar } from "~/components/ui/avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "~/components/ui/sheet";
import { SignInDialog } from "~/components/auth/sign-in-dialog";
import { WalletButton } from "~/components/wallet-button";
import { route } from "~/lib/routes";
import { useWallet } from "~/wallet/wallet-provider";
import { cn } from "~/lib/utils";

export type ShellUser = { name: string; email: string; image: string | null; username: string | null };

const NAV = [
  { to: route("dashboard"), label: "Dashboard", icon: LayoutDashboard, signedIn: true },
  { to: route("projects.index"), label: "Projects", icon: FolderKanban, match: "/projects" },
  { to: route("tasks.index"), label: "Tasks", icon: ListChecks, match: "/tasks" },
  { to: route("campaigns.index"), label: "Campaigns", icon: Flag, match: "/campaigns" },
  { to: route("crusades.index"), label: "Crusades", icon: RouteIcon, match: "/crusades" },
  { to: route("leaderboard"), label: "Leaderboard", icon: Trophy },
  { to: route("settings.profile"), label: "Settings", icon: Settings, match: "/settings", signedIn: true },
];

export const SIDEBAR_COOKIE = "sidebar";

function NavItems({ collapsed = false, signedIn, onNavigate }: { collapsed?: boolean; signedIn: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main" className="grid gap-1">
      {NAV.filter((item) => signedIn || !item.signedIn).map(({ to, label, icon: Icon, match }) => {
        const active = pathname === to || (match !== undefined && pathname.startsWith(match));
        return (
          <NavLink
            key={to}
            to={to}
            onClick={onNavigate}
            title={collapsed ? label : undefined}
            aria-current={active ? "page" : undefined}
            className={cn(
              "flex h-9 items-center gap-3 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground",
              active && "bg-accent text-foreground",
              collapsed && "justify-center px-0",
            )}
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            <span className={cn(collapsed && "sr-only")}>{label}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}

function Brand({ collapsed = false }: { collapsed?: boolean }) {
  return (
    <Link to={route("welcome")} className="flex items-center gap-2 px-1 font-semibold">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand text-brand-foreground">
        <Sparkles className="size-4" aria-hidden />
      </span>
      <span className={cn(collapsed && "sr-only")}>Questline</span>
    </Link>
  );
}

function UserMenu({ user }: { user: ShellUser }) {
  const display = user.name || user.username || user.email;
  // Signing out also disconnects the wallet.
  const wallet = useWallet();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label="Account menu">
          <UserAvatar name={display} image={user.image} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <p className="truncate font-medium">{display}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={route("settings.profile")}>
            <Settings /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <Form method="post" action={route("logout")} onSubmit={() => void wallet.disconnect()}>
          {/* Selecting an item closes the menu, which would remove this form before it submits. */}
          <DropdownMenuItem asChild onSelect={(event) => event.preventDefault()}>
            <button type="submit" className="w-full">
              <LogOut /> Sign out
            </button>
          </DropdownMenuItem>
        </Form>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The signed-in frame: a collapsible sidebar on wide screens, a drawer on narrow ones, the user menu. */
export function AppShell({ user, initiallyCollapsed, children }: { user: ShellUser | null; initiallyCollapsed: boolean; children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();

  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    document.cookie = `${SIDEBAR_COOKIE}=${next ? "collapsed" : "expanded"}; Max-Age=31536000; Path=/; SameSite=Lax`;
  };

  return (
    <div className="flex min-h-svh">
      <aside
        className={cn(
          "sticky top-0 hidden h-svh shrink-0 flex-col gap-6 border-r bg-sidebar p-3 transition-[width] duration-150 md:flex",
          collapsed ? "w-16" : "w-60",
        )}
      >
        <Brand collapsed={collapsed} />
        <NavItems collapsed={collapsed} signedIn={user !== null} />
        <Button
          variant="ghost"
          size="icon"
          className="mt-auto self-center"
          onClick={toggle}
          aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
          aria-expanded={!collapsed}
        >
          {collapsed ? <PanelLeftOpen /> : <PanelLeftClose />}
        </Button>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur">
          <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
            <SheetTrigger asChild>
              <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
                <Menu />
              </Button>
            </SheetTrigger>
            <SheetContent>
              <SheetTitle className="sr-only">Menu</SheetTitle>
              <Brand />
              <NavItems signedIn={user !== null} onNavigate={() => setDrawerOpen(false)} />
            </SheetContent>
          </Sheet>
          <div className="md:hidden">
            <Brand collapsed />
          </div>
          <div className="ml-auto flex items-center gap-2">
            {user ? (
              <>
                <WalletButton />
                <UserMenu user={user} />
              </>
            ) : (
              <SignInDialog trigger={<Button size="sm">Sign in</Button>} redirectTo={pathname} />
            )}
          </div>
        </header>
        <main className="mx-auto w-full max-w-5xl flex-1 p-4 sm:p-6">{children}</main>
      </div>
    </div>
  );
}
