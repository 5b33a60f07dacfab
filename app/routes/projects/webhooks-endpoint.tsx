import { ArrowLeft } from "lucide-react";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/webhooks-endpoint";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormError } from "~/components/ui/form-error";
import { dataWithToast, redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { formFailure, type Result } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { listDeliveries } from "~/modules/webhooks/delivery-log.server";
import { deleteEndpoint, enableEndpoint, endpointInProject, rotateEndpointSecret, updateEndpoint } from "~/modules/webhooks/endpoints.server";
import { webhookProject } from "~/modules/webhooks/manage.server";
import { redeliver, redeliverAllFailed, sendTestEvent } from "~/modules/webhooks/redeliver.server";
import { endpointFormValues, parseEndpointForm } from "~/modules/webhooks/webhook.schema";
import {
  EndpointForm,
  endpointPath,
  EndpointStateBadge,
  IntentButton,
  SecretReveal,
  usePendingIntent,
  webhooksPath,
  type EndpointFormValues,
} from "./webhooks-parts";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Webhook endpoint - ${loaderData.project.name}` : "Webhook endpoint") }];
}

const when = (iso: string) => new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "medium" });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { user } = await requireUser(context, request);
  const project = await webhookProject({ db, slug: params.project, userId: user.id });
  const endpoint = await endpointInProject({ db, projectId: project.id, endpointId: params.endpoint });
  if (!endpoint) throw data("Not found", { status: 404 });
  const cursor = new URL(request.url).searchParams.get("cursor");
  const log = await listDeliveries({ db, endpointId: endpoint.id, cursor });
  return {
    project: { slug: project.slug, name: project.name },
    endpoint: {
      ...endpoint,
      disabledAt: endpoint.disabledAt?.toISOString() ?? null,
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      previousSecretUntil: endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date() ? endpoint.previousSecretUntil.toISOString() : null,
      createdAt: endpoint.createdAt.toISOString(),
    },
    firstPage: !cursor,
    next: log.next,
    deliveries: log.deliveries.map((d) => ({ ...d, createdAt: d.createdAt.toISOString(), nextAttemptAt: d.nextAttemptAt.toISOString() })),
  };
}

type ActionData = { intent: string; errors?: Record<string, string>; values?: EndpointFormValues; secret?: string; previousValidUntil?: string };
const rowSchema = z.object({ id: z.string().min(1).max(100) });

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { env } = services;
  const db = services.database.db;
  const { user } = await requireUser(context, request);
  const project = await webhookProject({ db, slug: params.project, userId: user.id });
  const scope = { db, projectId: project.id, endpointId: params.endpoint };
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const here = endpointPath(project.slug, params.endpoint);
  const done = (message: string) => redirectWithToast(here, message, { appUrl: env.APP_URL });
  const refused = (result: Exclude<Result, { ok: true }>) => formFailure<ActionData>(result, { intent });

  if (intent === "update") {
    const values = endpointFormValues(formData);
    const form = parseEndpointForm(formData);
    if (!form.ok) return formFailure<ActionData>(form, { intent, values });
    const saved = await updateEndpoint({ ...scope, allowLoopback: !env.isPublic, input: form.data });
    return saved.ok ? done("Endpoint saved") : formFailure<ActionData>(saved, { intent, values });
  }
  if (intent === "rotate") {
    const rotated = await rotateEndpointSecret({ ...scope, tokenKey: env.social.tokenKey });
    if (!rotated.ok) return refused(rotated);
    // The new secret goes to the browser this once, in this answer.
    return dataWithToast<ActionData>({ intent, secret: rotated.secret, previousValidUntil: rotated.previousValidUntil.toISOString() }, "Secret rotated", {
      appUrl: env.APP_URL,
    });
  }
  if (intent === "test") {
    const sent = await sendTestEvent(scope);
    return sent.ok ? done("Test event on its way: it shows in the log within seconds") : refused(sent);
  }
  if (intent === "enable") {
    const enabled = await enableEndpoint(scope);
    return enabled.ok ? done("Endpoint enabled") : refused(enabled);
  }
  if (intent === "delete") {
    const deleted = await deleteEndpoint(scope);
    if (!deleted.ok) return refused(deleted);
    return redirectWithToast(webhooksPath(project.slug), "Endpoint deleted", { appUrl: env.APP_URL });
  }
  if (intent === "redeliver") {
    const row = rowSchema.safeParse(Object.fromEntries(formData));
    if (!row.success) return data<ActionData>({ intent, errors: { form: "Choose a delivery first." } }, { status: 400 });
    const again = await redeliver({ ...scope, deliveryId: row.data.id });
    return again.ok ? done("Delivery queued again") : refused(again);
  }
  if (intent === "redeliverAll") {
    const again = await redeliverAllFailed(scope);
    if (!again.ok) return refused(again);
    return done(again.count === 0 ? "No failed deliveries to send" : `${again.count} failed ${again.count === 1 ? "delivery" : "deliveries"} queued again`);
  }
  return data<ActionData>({ intent, errors: { form: "Unknown action." } }, { status: 400 });
}

const STATE_BADGE = { delivered: "success", pending: "warning", failed: "destructive" } as const;

export default function WebhookEndpoint({ loaderData, actionData }: Route.ComponentProps) {
  const { project, endpoint, deliveries, next, firstPage } = loaderData;
  const result = actionData as ActionData | undefined;
  const deletePending = usePendingIntent("delete");
  const formError = result && result.intent !== "update" ? result.errors?.form : undefined;
  return (
    <>
      <PageHeader
        title="Webhook endpoint"
        description={<span className="break-all">{endpoint.url}</span>}
        actions={
          <Button asChild variant="outline">
            <Link to={webhooksPath(project.slug)}>
              <ArrowLeft aria-hidden /> Webhooks
            </Link>
          </Button>
        }
      />
      <div className="grid gap-6">
        {result?.secret && (
          <SecretReveal secret={result.secret}>
            The previous secret keeps signing alongside it until {when(result.previousValidUntil!)}: update your receiver before then.
          </SecretReveal>
        )}
        <FormError message={formError} />
        <Card>
          <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
            <CardTitle>State</CardTitle>
            <EndpointStateBadge endpoint={endpoint} />
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            {!endpoint.enabled && (
              <p className="text-destructive">
                Disabled {endpoint.disabledAt && when(endpoint.disabledAt)}. {endpoint.disabledReason}
              </p>
            )}
            {endpoint.previousSecretUntil && <p className="text-muted-foreground">The previous secret signs too until {when(endpoint.previousSecretUntil)}.</p>}
            <div className="flex flex-wrap gap-2">
              {!endpoint.enabled && (
                <IntentButton intent="enable" variant="default">
                  Enable again
                </IntentButton>
              )}
              <IntentButton intent="test">Send test event</IntentButton>
              <IntentButton intent="rotate">Rotate secret</IntentButton>
              <IntentButton intent="redeliverAll">Redeliver all failed</IntentButton>
            </div>
          </CardContent>
        </Card>

        <section aria-labelledby="log-title" className="grid gap-3">
          <h2 id="log-title" className="text-lg font-semibold">
            Delivery log
          </h2>
          {deliveries.length === 0 ? (
            <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">No deliveries yet. Send a test event to see one.</p>
          ) : (
            <ul className="grid gap-2">
              {deliveries.map((d) => (
                <li key={d.id} className="grid gap-2 rounded-xl border bg-card p-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <code className="font-semibold">{d.eventType}</code>
                    <Badge variant={STATE_BADGE[d.state]}>{d.state}</Badge>
                    {d.lastStatus !== null && <Badge variant="outline">HTTP {d.lastStatus}</Badge>}
                    <span className="text-muted-foreground">
                      {when(d.createdAt)} · {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                      {d.lastDurationMs !== null && ` · ${d.lastDurationMs} ms`}
                      {d.state === "pending" && d.attempts > 0 && ` · next try ${when(d.nextAttemptAt)}`}
                    </span>
                    <span className="ml-auto">
                      <IntentButton intent="redeliver" id={d.id} label={`Redeliver ${d.eventType} of ${when(d.createdAt)}`}>
                        Redeliver
                      </IntentButton>
                    </span>
                  </div>
                  <p className="text-xs break-all text-muted-foreground">
                    <code>{d.id}</code>
                  </p>
                  {d.lastError && <p className="text-destructive">{d.lastError}</p>}
                  {d.responseExcerpt && (
                    <details>
                      <summary className="cursor-pointer text-muted-foreground">Response</summary>
                      <pre className="mt-2 max-h-48 overflow-auto rounded-md bg-muted p-2 text-xs whitespace-pre-wrap">{d.responseExcerpt}</pre>
                    </details>
                  )}
                </li>
              ))}
            </ul>
          )}
          {(next || !firstPage) && (
            <nav aria-label="Delivery log pages" className="flex gap-2">
              {!firstPage && (
                <Button asChild variant="outline" size="sm">
                  <Link to={endpointPath(project.slug, endpoint.id)}>Newest</Link>
                </Button>
              )}
              {next && (
                <Button asChild variant="outline" size="sm">
                  <Link to={`${endpointPath(project.slug, endpoint.id)}?cursor=${encodeURIComponent(next)}`}>Older</Link>
                </Button>
              )}
            </nav>
          )}
        </section>

        <Card>
          <CardHeader>
            <CardTitle>Edit endpoint</CardTitle>
          </CardHeader>
          <CardContent>
            <EndpointForm
              intent="update"
              submitLabel="Save endpoint"
              values={
                result?.intent === "update" && result.values
                  ? result.values
                  : { url: endpoint.url, description: endpoint.description, eventTypes: endpoint.eventTypes }
              }
              errors={result?.intent === "update" ? result.errors : undefined}
            />
          </CardContent>
        </Card>

        <details className="rounded-xl border border-destructive/40 p-4">
          <summary className="cursor-pointer text-sm font-medium text-destructive">Delete this endpoint</summary>
          <Form method="post" className="mt-3 grid gap-3 text-sm">
            <p>The endpoint, its pending deliveries and its delivery log are removed. This cannot be undone.</p>
            <input type="hidden" name="intent" value="delete" />
            <div>
              <Button type="submit" variant="destructive" size="sm" pending={deletePending}>
                Delete endpoint
              </Button>
            </div>
          </Form>
        </details>
      </div>
    </>
  );
}
