import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/connections";
import { ConnectionStatus, ProviderMark } from "~/components/settings/social-connection";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { listConnections } from "~/modules/social/connections.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Connections") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const connections = await listConnections({ db: services.database.db, social: services.env.social, userId: user.id });
  return {
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
        <CardDescription>Your social accounts. Tasks on X, YouTube, TikTok and Instagram are checked with the account you connect here.</CardDescription>
      </CardHeader>
      <CardContent>
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
