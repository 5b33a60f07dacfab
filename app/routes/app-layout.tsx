import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { AppShell, SIDEBAR_COOKIE } from "~/components/app-shell";
import { getSession } from "~/modules/auth/session.server";
import { unreadCount } from "~/modules/notifications/inbox.server";
import { servicesContext } from "~/services/services.server";

/**
 * The app shell around every screen but Welcome and sign-in. Public screens (projects, tasks,
 * boards) are open to visitors; signed-in screens ask for a session in their own loaders.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getSession(context);
  const cookie = request.headers.get("cookie") ?? "";
  const user = session?.user;
  // The bell's number, for members only: one count on a partial index (notification_unread_idx); visitors' pages read nothing more.
  const unread = user ? await unreadCount({ db: context.get(servicesContext).database.db, userId: user.id }) : 0;
  return {
    unread,
    user: user ? { name: user.name, email: user.email, image: user.image ?? null, username: (user.username as string | null) ?? null } : null,
    collapsed: new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE}=collapsed`).test(cookie),
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} unread={loaderData.unread} initiallyCollapsed={loaderData.collapsed}>
      <Outlet />
    </AppShell>
  );
}
