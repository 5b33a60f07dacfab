import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { AppShell, SIDEBAR_COOKIE } from "~/components/app-shell";
import { requireUser } from "~/modules/auth/session.server";

/** Every signed-in screen sits in the app shell; signed-out visitors go to /login and come back. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const cookie = request.headers.get("cookie") ?? "";
  return {
    user: { name: user.name, email: user.email, image: user.image ?? null, username: (user.username as string | null) ?? null },
    collapsed: new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE}=collapsed`).test(cookie),
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} initiallyCollapsed={loaderData.collapsed}>
      <Outlet />
    </AppShell>
  );
}
