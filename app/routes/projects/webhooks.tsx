import { Webhook } from "lucide-react";
import { BackToProject } from "~/components/projects/back-to-project";
import { Link } from "react-router";
import type { Route } from "./+types/webhooks";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { dataWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { webhookProject } from "~/modules/webhooks/manage.server";
import { createEndpoint, listEndpoints } from "~/modules/webhooks/endpoints.server";
import { endpointFormValues, MAX_ENDPOINTS_PER_PROJECT, parseEndpointForm } from "~/modules/webhooks/webhook.schema";
import { EndpointForm, endpointPath, EndpointStateBadge, SecretReveal, SignatureHelp, type EndpointFormValues } from "./webhooks-parts";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Webhooks - ${loaderData.project.name}` : "Webhooks") }];
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await webhookProject({ db: services.database.db, slug: params.project, userId: user.id });
  const endpoints = await listEndpoints({ db: services.database.db, projectId: project.id });
  return {
    project: { slug: project.slug, name: project.name },
    localTrial: !services.env.isPublic,
    max: MAX_ENDPOINTS_PER_PROJECT,
    endpoints: endpoints.map((e) => ({
      id: e.id,
      url: e.url,
      description: e.description,
      eventTypes: e.eventTypes,
      enabled: e.enabled,
      disabledReason: e.disabledReason,
      failingSince: e.failingSince?.toISOString() ?? null,
      lastDelivery: e.lastDelivery && {
        eventType: e.lastDelivery.eventType,
        state: e.lastDelivery.state,
        status: e.lastDelivery.lastStatus,
        at: e.lastDelivery.createdAt.toISOString(),
      },
    })),
  };
}

type ActionData = { errors?: Record<string, string>; values?: EndpointFormValues; created?: { id: string; url: string; secret: string } };

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await webhookProject({ db: services.database.db, slug: params.project, userId: user.id });
  const formData = await request.formData();
  const values = endpointFormValues(formData);
  const form = parseEndpointForm(formData);
  if (!form.ok) return formFailure<ActionData>(form, { values });
  const created = await createEndpoint({
    db: services.database.db,
    tokenKey: services.env.social.tokenKey,
    allowLoopback: !services.env.isPublic,
    projectId: project.id,
    userId: user.id,
    input: form.data,
  });
  if (!created.ok) return formFailure<ActionData>(created, { values });
  // The secret goes to the browser this once, in this answer; no loader returns it.
  return dataWithToast<ActionData>({ created: { id: created.endpoint.id, url: created.endpoint.url, secret: created.secret } }, "Endpoint added", {
    appUrl: services.env.APP_URL,
  });
}

const EMPTY: EndpointFormValues = { url: "", description: "", eventTypes: [] };

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { project, endpoints, localTrial, max } = loaderData;
  const result = actionData as ActionData | undefined;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Events of ${project.name} sent to your own server as they happen.`}
        actions={<BackToProject project={project} />}
      />
      <div className="grid gap-6">
        {result?.created && (
          <SecretReveal secret={result.created.secret}>
            The endpoint{" "}
            <Link className="underline" to={endpointPath(project.slug, result.created.id)}>
              {result.created.url}
            </Link>{" "}
            is added. Verify our signatures with this secret.
          </SecretReveal>
        )}
        <section aria-labelledby="endpoints-title" className="grid gap-3">
          <h2 id="endpoints-title" className="text-lg font-semibold">
            Endpoints
          </h2>
          {endpoints.length === 0 ? (
            <EmptyState icon={Webhook} title="No endpoints yet">
              Add one below to receive completions, rewards and more as they happen.
            </EmptyState>
          ) : (
            <ul className="grid gap-3">
              {endpoints.map((e) => (
                <li key={e.id} className="grid gap-2 rounded-xl border bg-card p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={endpointPath(project.slug, e.id)} className="min-w-0 font-medium break-all underline-offset-4 hover:underline">
                      {e.url}
                    </Link>
                    <EndpointStateBadge endpoint={e} />
                  </div>
                  {e.description && <p className="text-sm text-muted-foreground">{e.description}</p>}
                  {!e.enabled && e.disabledReason && <p className="text-sm text-destructive">{e.disabledReason}</p>}
                  <div className="flex flex-wrap gap-1">
                    {e.eventTypes.map((t) => (
                      <Badge key={t} variant="outline">
                        {t}
                      </Badge>
                    ))}
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {e.lastDelivery
                      ? `Last delivery: ${e.lastDelivery.eventType}, ${e.lastDelivery.state}${e.lastDelivery.status ? ` (HTTP ${e.lastDelivery.status})` : ""}, ${new Date(e.lastDelivery.at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}`
                      : "No deliveries yet"}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
        <Card>
          <CardHeader>
            <CardTitle>Add endpoint</CardTitle>
          </CardHeader>
          <CardContent>
            {endpoints.length >= max ? (
              <p className="text-sm text-muted-foreground">A project has at most {max} endpoints. Remove one to add another.</p>
            ) : (
              <EndpointForm
                key={result?.created?.id ?? "new"}
                intent="create"
                submitLabel="Add endpoint"
                values={result?.values ?? EMPTY}
                errors={result?.errors}
              />
            )}
          </CardContent>
        </Card>
        <SignatureHelp localTrial={localTrial} />
      </div>
    </>
  );
}
