import { XIcon } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/menu";
import { Brand, NavItems } from "~/components/nav";
import { buttonVariants } from "~/components/ui/button";
import { pageTitle } from "~/lib/meta";
import { getSession, safeRedirect } from "~/modules/auth/session.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Menu") }, { name: "robots", content: "noindex" }];
}

/**
 * The navigation as a page of its own: what the phone's "Open menu" opens before the page's script
 * has taken over (or without it), where the drawer needs the script. Closing goes back to `from`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get("from");
  const signedIn = Boolean(await getSession(context));
  return { signedIn, back: safeRedirect(from, signedIn ? "/dashboard" : "/") };
}

export default function Menu({ loaderData: { signedIn, back } }: Route.ComponentProps) {
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
        <NavItems signedIn={signedIn} />
      </div>
    </main>
  );
}
