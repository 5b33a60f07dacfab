import { XIcon } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/menu";
import { accountNameOf, SignOutButton } from "~/components/app-shell";
import { Brand, NavItems, navItemClass } from "~/components/nav";
import { buttonVariants } from "~/components/ui/button";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { getSession, safeRedirect } from "~/modules/auth/session.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Menu") }, { name: "robots", content: "noindex" }];
}

/**
 * The navigation (Settings among it, for a member) and Sign out as a page of their own: what the
 * phone's "Open menu" and the account menu open before the page's script has taken over (or
 * without it), where the drawer and the menu need the script. Closing goes back to `from`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get("from");
  const user = (await getSession(context))?.user;
  const account = user
    ? { name: accountNameOf({ name: user.name, username: (user.username as string | null) ?? null, email: user.email }), email: user.email }
    : null;
  return { account, back: safeRedirect(from, account ? route("dashboard") : route("welcome")) };
}

export default function Menu({ loaderData: { account, back } }: Route.ComponentProps) {
  return (
    <main className="min-h-svh bg-sidebar p-4">
      <div className="mx-auto grid max-w-sm gap-6">
        <h1 className="sr-only">Menu</h1>
        <div className="flex items-center justify-between">
          <Brand />
          <Link to={back} className={buttonVariants({ variant: "ghost", size: "icon" })} aria-label="Close menu">
            <XIcon aria-hidden />
          </Link>
        </div>
        <NavItems signedIn={account !== null} />
        {account && (
          <section aria-label="Account" className="grid gap-1 border-t pt-4 [&_svg]:size-4 [&_svg]:shrink-0">
            <div className="px-3 pb-2 text-sm">
              <p className="truncate font-medium">{account.name}</p>
              {account.email !== account.name && <p className="truncate text-xs text-muted-foreground">{account.email}</p>}
            </div>
            <SignOutButton className={navItemClass} />
          </section>
        )}
      </div>
    </main>
  );
}
