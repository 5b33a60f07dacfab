import { Bell } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";

/** The header's bell: a link to the inbox with the number of unread notifications. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications" : `Notifications, ${unread} unread`;
  return (
    <Link to={route("notifications")} aria-label={label} title={label} className={cn(buttonVariants({ variant: "ghost", size: "icon" }), "relative")}>
      <Bell aria-hidden />
      {unread > 0 && (
        <span
          aria-hidden
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-brand px-1 text-[10px] leading-none font-semibold text-brand-foreground"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
