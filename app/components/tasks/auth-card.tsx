import { LogIn, PlugZap, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";
import { PROVIDER_LABELS, type SocialProvider } from "~/modules/social/providers";

/** The card shown in place of a task's action until the member can do it: a title, a line of why, one button. */
function GateCard({ title, children, action }: { title: ReactNode; children: ReactNode; action: ReactNode }) {
  return (
    <div className="grid justify-items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-5">
      <div className="grid gap-1">
        <p className="font-medium">{title}</p>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
      {action}
    </div>
  );
}

/** Shown to signed-out visitors in place of a task's action: sign in, then come back here. */
export function AuthCard({ redirectTo, action = "do this task" }: { redirectTo: string; action?: string }) {
  return (
    <GateCard
      title={`Sign in to ${action}`}
      action={
        <Button asChild variant="brand">
          <Link to={`${route("login")}?${new URLSearchParams({ redirectTo })}`}>
            <LogIn aria-hidden /> Sign in
          </Link>
        </Button>
      }
    >
      <p>Sign in with your e-mail or a wallet to complete tasks, earn XP and climb the leaderboards. It takes a minute.</p>
    </GateCard>
  );
}

/**
 * Shown to a signed-in member in place of a social task's action until their account on the
 * provider is connected (or connected again, when the provider stopped accepting it).
 */
export function ConnectCard({ provider, reconnect = null }: { provider: SocialProvider; reconnect?: { handle: string; reason: string | null } | null }) {
  const label = PROVIDER_LABELS[provider];
  const to = route("settings.connection", { provider });
  if (reconnect) {
    return (
      <GateCard
        title={`Reconnect your ${label} account`}
        action={
          <Button asChild variant="brand">
            <Link to={to}>
              <RefreshCw aria-hidden /> Reconnect {label}
            </Link>
          </Button>
        }
      >
        <p>
          {reconnect.handle ? `${label} no longer accepts the connection of @${reconnect.handle}.` : `${label} no longer accepts your connection.`}{" "}
          {reconnect.reason}
        </p>
        <p className="mt-1">Reconnect it, then come back: this task is checked with {label} through your account.</p>
      </GateCard>
    );
  }
  return (
    <GateCard
      title={`Connect your ${label} account`}
      action={
        <Button asChild variant="brand">
          <Link to={to}>
            <PlugZap aria-hidden /> Connect {label}
          </Link>
        </Button>
      }
    >
      <p>
        This task is checked with {label}: Questline reads what your account did through {label}&apos;s API, with your permission. It never posts for you.
      </p>
    </GateCard>
  );
}
