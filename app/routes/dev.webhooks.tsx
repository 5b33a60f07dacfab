import { Webhook } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/dev.webhooks";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { listDevWebhooks } from "~/modules/webhooks/dev-receiver.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Dev webhook receiver") }];
}

/** What the local trial's own receiver got: the demo project's endpoint points here. Absent in public mode. */
export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  if (env.isPublic) throw data("Not found", { status: 404 });
  return { received: listDevWebhooks({ dataDir: env.DATA_DIR }) };
}

export default function DevWebhooks({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Dev webhook receiver"
        description="In the local trial, an endpoint can point at /dev/webhooks/receive/<endpoint id>: each message is checked against the endpoint's secret and kept here (the last 100)."
      />
      {loaderData.received.length === 0 ? (
        <EmptyState icon={Webhook} title="Nothing received yet">
          Complete a task in the demo project, or press Send test event on one of its webhook endpoints.
        </EmptyState>
      ) : (
        <ul className="grid gap-3">
          {loaderData.received.map((r, i) => (
            <li key={`${r.webhookId}-${r.receivedAt}-${i}`} className="grid gap-2 rounded-xl border bg-card p-4 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <code className="font-semibold">{r.type ?? "(no type)"}</code>
                <Badge variant={r.signatureValid ? "success" : "destructive"}>{r.signatureValid ? "Signature valid" : "Signature invalid"}</Badge>
                <span className="text-muted-foreground">{new Date(r.receivedAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "medium" })}</span>
              </div>
              <p className="text-xs break-all text-muted-foreground">
                <code>{r.webhookId}</code> to <code>{r.endpointId}</code>
              </p>
              <pre className="overflow-x-auto rounded-md bg-muted p-2 text-xs whitespace-pre-wrap">{r.body}</pre>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
