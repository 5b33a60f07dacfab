import { LogOut, Menu, PanelLeftClose, PanelLeftOpen, Settings } from "lucide-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import { SignInDialog } from "~/components/auth/sign-in-dialog";
import { PageFallback } from "~/components/ui/page-fallback";
import { Brand, NavItems } from "~/components/nav";
import { UserAvatar } from "~/components/ui/avatar";
import { Button, buttonVariants } from "~/components/ui/button";
import { MenuButton, menuItemClass, MenuSeparator } from "~/components/ui/menu";
import { WalletButton } from "~/components/wallet-button";
import { NotificationBell } from "~/components/notifications/notification-bell";
import { useDeferredPopup } from "~/hooks/use-deferred-popup";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { useWallet } from "~/wallet/wallet-provider";

// The phone drawer's code comes when it is first reached for.
const loadDrawer = () => import("./nav-drawer");
const NavDrawer = lazy(loadDrawer);

export type ShellUser = { name: string; email: string; image: string | null; username: string | null };

export const SIDEBAR_COOKIE = "sidebar";

/** Signing out, which also disconnects the wallet. */
export function SignOutButton({ className, menuItem = false }: { className: string; menuItem?: boolean }) {
  const wallet = useWallet();
  return (
    <Form method="post" action={route("logout")} onSubmit={() => void wallet.disconnect()}>
      <button type="submit" className={className} {...(menuItem ? { role: "menuitem", tabIndex: -1 } : {})}>
        <LogOut aria-hidden /> Sign out
      </button>
    </Form>
  );
}

/** How the account menu and the menu page name the member. */
export const accountNameOf = (user: Pick<ShellUser, "name" | "username" | "email">) => user.name || user.username || user.email;

function UserMenu({ user, from }: { user: ShellUser; from: string }) {
  const display = accountNameOf(user);
  return (
    <MenuButton
      label="Account menu"
      fallback={{ action: route("menu"), fields: { from } }}
      buttonClassName={cn(buttonVariants({ variant: "ghost", size: "icon" }), "rounded-full")}
      button={<UserAvatar name={display} image={user.image} />}
      header={
        <div className="px-2 py-1.5 text-sm">
          <p className="truncate font-medium">{display}</p>
          {user.email !== display && <p className="truncate text-xs text-muted-foreground">{user.email}</p>}
        </div>
      }
    >
      <MenuSeparator />
      <Link to={route("settings.profile")} role="menuitem" tabIndex={-1} className={menuItemClass}>
        <Settings aria-hidden /> Settings
      </Link>
      <MenuSeparator />
      <SignOutButton className={menuItemClass} menuItem />
    </MenuButton>
  );
}

/** The signed-in frame: a collapsible sidebar on wide screens, a drawer on narrow ones, the user menu. */
export function AppShell({
  user,
  unread = 0,
  initiallyCollapsed,
  children,
}: {
  user: ShellUser | null;
  /** The signed-in member's unread notifications (the bell's number). */
  unread?: number;
  initiallyCollapsed: boolean;
  children: ReactNode;
}) {
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  const drawer = useDeferredPopup(loadDrawer);
  const { pathname, search } = useLocation();
  // Where the menu page, opened before the script has taken over, closes back to.
  const here = pathname + search;

  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    document.cookie = `${SIDEBAR_COOKIE}=${next ? "collapsed" : "expanded"}; Max-Age=31536000; Path=/; SameSite=Lax`;
  };

  return (
    <div className="flex min-h-svh">
      {/* The first stop of the keyboard: past the navigation to the page's own content. */}
      <a
        href="#content"
        className="sr-only text-sm font-medium outline-none focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:border focus:bg-background focus:px-3 focus:py-2 focus:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        Skip to content
      </a>
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
          <PageFallback action={route("menu")} fields={{ from: here }}>
            <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" {...drawer.triggerProps}>
              <Menu />
            </Button>
          </PageFallback>
          {drawer.used && (
            <Suspense fallback={null}>
              <NavDrawer open={drawer.open} onOpenChange={drawer.setOpen} returnFocus={drawer.returnFocus} signedIn={user !== null} />
            </Suspense>
          )}
          <div className="md:hidden">
            <Brand collapsed />
          </div>
          <div className="ml-auto flex items-center gap-2">
            {user ? (
              <>
                <NotificationBell unread={unread} />
                <WalletButton />
                <UserMenu user={user} from={here} />
              </>
            ) : (
              <SignInDialog trigger={<Button size="sm">Sign in</Button>} redirectTo={pathname} />
            )}
          </div>
        </header>
        <main id="content" tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 p-4 outline-none sm:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
