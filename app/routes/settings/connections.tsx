import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/connections";
import { ConnectionStatus, ProviderMark } from "~/components/settings/social-connection";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { connectionErrorMessage, listConnections } from "~/modules/social/connections.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Connections") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const connections = await listConnections({ db: services.database.db, social: services.env.social, userId: user.id });
  const error = new URL(request.url).searchParams.get("error");
  return {
    /** A connection came back failing before its provider was known (an unknown, expired or used state). */
    connectError: error ? connectionErrorMessage(error) : null,
    connections: connections.map(({ provider, label, configured, account }) => ({
      provider,
      label,
      configured,
      handle: account?.handle ?? null,
      status: account?.status ?? null,
    })),
  };
}

export default function Connections({ loaderData }: Route.ComponentProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connections</CardTitle>
        <CardDescription>
          Your social accounts. Tasks on {new Intl.ListFormat("en", { type: "conjunction" }).format(loaderData.connections.map((c) => c.label))} are checked
          with the account you connect here.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {loaderData.connectError && (
          <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
            {loaderData.connectError}
          </p>
        )}
        <ul className="grid divide-y">
          {loaderData.connections.map((c) => (
            <li key={c.provider}>
              <Link
                to={route("settings.connection", { provider: c.provider })}
                className="flex items-center gap-3 rounded-md py-3 outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <ProviderMark provider={c.provider} />
                <span className="grid min-w-0">
                  <span className="font-medium">{c.label}</span>
                  <span className="truncate text-sm text-muted-foreground">
                    {c.status
                      ? c.handle && c.provider !== "youtube"
                        ? `@${c.handle}`
                        : c.handle || "Connected"
                      : c.configured
                        ? "Not connected"
                        : "Not set up on this server"}
                  </span>
                </span>
                <span className="ml-auto flex items-center gap-2">
                  {c.status ? <ConnectionStatus status={c.status} /> : !c.configured && <Badge variant="outline">Not set up</Badge>}
                  <ChevronRight aria-hidden className="size-4 text-muted-foreground" />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
