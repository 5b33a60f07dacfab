import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";

/** The full-page 403 / 404 / 500 screen. */
export function StatusPage({ appName, status, title, message }: { appName: string; status: number; title: string; message: string }) {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{pageTitle(appName, title)}</title>
      <p className="text-6xl font-bold text-muted-foreground/60">{status}</p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="max-w-sm text-muted-foreground">{message}</p>
      <Button asChild>
        <Link to={route("welcome")}>Back to {appName}</Link>
      </Button>
    </main>
  );
}
