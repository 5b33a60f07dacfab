import { LogIn } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";

/** Shown to signed-out visitors in place of a task's action: sign in, then come back here. */
export function AuthCard({ redirectTo, action = "do this task" }: { redirectTo: string; action?: string }) {
  return (
    <div className="grid justify-items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-5">
      <div className="grid gap-1">
        <p className="font-medium">Sign in to {action}</p>
        <p className="text-sm text-muted-foreground">
          Sign in with your e-mail or a wallet to complete tasks, earn XP and climb the leaderboards. It takes a minute.
        </p>
      </div>
      <Button asChild variant="brand">
        <Link to={`${route("login")}?${new URLSearchParams({ redirectTo })}`}>
          <LogIn aria-hidden /> Sign in
        </Link>
      </Button>
    </div>
  );
}
