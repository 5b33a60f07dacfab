import { BookOpen, KeyRound, TriangleAlert } from "lucide-react";
import { BackToProject } from "~/components/projects/back-to-project";
import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/api";
import { PageHeader } from "~/components/page-header";
import { CopyLink } from "~/components/projects/copy-link";
import { formatDate } from "~/components/projects/roles";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { CheckboxField } from "~/components/ui/form-parts";
import { Input } from "~/components/ui/input";
import { redirectWithToast } from "~/lib/flash.server";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { failureMessage, type FieldErrors } from "~/lib/result";
import { apiKeyFormSchema } from "~/modules/api/api-key.schema";
import { createApiKey, keyLimitRefusal, listApiKeys, revokeApiKey } from "~/modules/api/api-keys.server";
import { API_SCOPE_WORDS, API_SCOPES } from "~/modules/api/api-scopes";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `API - ${loaderData.project.name}` : "API") }];
}

/** The page that shows a new key (a form posted without JavaScript) is never cached. */
export function headers({ parentHeaders, actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(parentHeaders);
  const cacheControl = actionHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
}

const REFERENCE = "/api/v1/reference";
const apiPage = (slug: string) => `/projects/${slug}/api`;

async function managedProject({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: services.database.db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: services.database.db, projectId: project.id, userId: user.id, action: "api.manage" });
  return { services, user, project };
}

/** The project's API keys (never a key itself: it is shown once, in the Create action's answer). */
export async function loader(args: Route.LoaderArgs) {
  const { services, project } = await managedProject(args);
  const keys = await listApiKeys({ db: services.database.db, projectId: project.id });
  return { project: { slug: project.slug, name: project.name }, keys };
}

type ActionData = { ok: false; errors: FieldErrors; values: { name: string; scopes: string[] } } | { ok: true; key: string; name: string };

export async function action(args: Route.ActionArgs) {
  const { services, user, project } = await managedProject(args);
  const db = services.database.db;
  const formData = await args.request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (intent === "revoke") {
    const id = z.string().min(1).max(64).safeParse(formData.get("id"));
    const revoked = id.success ? await revokeApiKey({ db, projectId: project.id, keyId: id.data, revokedBy: user.id }) : null;
    const message = !revoked
      ? "Choose a key first."
      : revoked.ok
        ? `Key "${revoked.apiKey.name}" revoked: requests with it are refused from now on`
        : failureMessage(revoked);
    throw redirectWithToast(apiPage(project.slug), message, { appUrl: services.env.APP_URL });
  }
  const form = parseForm(apiKeyFormSchema, formData);
  if (!form.ok) {
    const values = { name: String(formData.get("name") ?? ""), scopes: API_SCOPES.filter((scope) => formData.get(`scope.${scope}`) === "on") };
    return data<ActionData>({ ok: false, errors: form.errors, values }, { status: 400 });
  }
  const full = await keyLimitRefusal({ db, projectId: project.id });
  if (full) return data<ActionData>({ ok: false, errors: { form: full.message }, values: form.data }, { status: 409 });
  const created = await createApiKey({ db, projectId: project.id, ...form.data, createdBy: user.id });
  // The whole key, this once: the loader never has it again.
  return data<ActionData>({ ok: true, key: created.key, name: created.apiKey.name }, { headers: { "Cache-Control": "no-store" } });
}

export default function ProjectApi({ loaderData }: Route.ComponentProps) {
  const { project, keys } = loaderData;
  const answer = useActionData<ActionData>();
  const navigation = useNavigation();
  const [search] = useSearchParams();
  const confirming = keys.find((key) => key.id === search.get("revoke") && !key.revokedAt);
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  const errors = answer && !answer.ok ? answer.errors : {};
  const values = answer && !answer.ok ? answer.values : { name: "", scopes: ["read"] };
  return (
    <>
      <PageHeader
        title="API"
        description={`Keys that let your own servers use the ${project.name} API.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <a href={REFERENCE}>
                <BookOpen aria-hidden /> API reference
              </a>
            </Button>
            <BackToProject project={project} />
          </div>
        }
      />
      <div className="grid gap-6">
        {answer?.ok && (
          <Card className="border-amber-500/50" role="status">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <TriangleAlert className="size-5 text-amber-600 dark:text-amber-400" aria-hidden /> Copy the key "{answer.name}" now
              </CardTitle>
              <CardDescription>
                It is shown this once: only its fingerprint is kept. Store it as a secret on your server; anyone who has it can act with its scopes.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CopyLink label="The new API key" url={answer.key} />
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Keys</CardTitle>
            <CardDescription>
              Send a key as <code>Authorization: Bearer ql_…</code>. A revoked key stops working at once.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {keys.length === 0 ? (
              <p className="text-sm text-muted-foreground">No keys yet: create one below.</p>
            ) : (
              <ul className="grid gap-3">
                {keys.map((key) => (
                  <li key={key.id} className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3">
                    <div className="grid min-w-0 gap-1">
                      <p className="flex flex-wrap items-center gap-2 font-medium">
                        <KeyRound className="size-4 text-muted-foreground" aria-hidden /> {key.name}
                        <code className="text-xs text-muted-foreground">{key.prefix}…</code>
                        {key.revokedAt && <Badge variant="destructive">Revoked {formatDate(key.revokedAt)}</Badge>}
                      </p>
                      <p className="flex flex-wrap gap-1">
                        {key.scopes.map((scope) => (
                          <Badge key={scope} variant="outline">
                            {scope}
                          </Badge>
                        ))}
                      </p>
                      <p className="text-xs text-muted-foreground">
                        Created {formatDate(key.createdAt)} · {key.lastUsedAt ? `last used ${formatDate(key.lastUsedAt)}` : "never used"}
                      </p>
                    </div>
                    {!key.revokedAt &&
                      (confirming?.id === key.id ? (
                        <Form method="post" action={apiPage(project.slug)} className="flex flex-wrap items-center gap-2" replace>
                          <input type="hidden" name="id" value={key.id} />
                          <span className="text-sm">Revoke "{key.name}"? Its requests will be refused.</span>
                          <Button
                            type="submit"
                            name="intent"
                            value="revoke"
                            variant="destructive"
                            size="sm"
                            pending={navigation.formData?.get("id") === key.id}
                          >
                            Revoke
                          </Button>
                          <Button asChild variant="ghost" size="sm">
                            <Link to={apiPage(project.slug)} replace preventScrollReset>
                              Cancel
                            </Link>
                          </Button>
                        </Form>
                      ) : (
                        <Button asChild variant="outline" size="sm">
                          <Link to={`?revoke=${key.id}`} replace preventScrollReset>
                            Revoke…
                          </Link>
                        </Button>
                      ))}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Create a key</CardTitle>
            <CardDescription>Give it only the scopes its server needs.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" action={apiPage(project.slug)} className="grid gap-4" key={answer?.ok ? answer.key : "form"}>
              <Field id="name" label="Name" hint="Who or what uses it, e.g. Discord bot" error={errors.name}>
                <Input {...fieldProps("name", errors.name)} defaultValue={values.name} maxLength={60} required />
              </Field>
              <fieldset className="grid gap-2" aria-describedby={errors.scopes ? "scopes-error" : undefined}>
                <legend className="mb-2 text-sm font-medium">Scopes</legend>
                {API_SCOPES.map((scope) => (
                  <CheckboxField
                    key={scope}
                    name={`scope.${scope}`}
                    label={scope}
                    hint={API_SCOPE_WORDS[scope]}
                    defaultChecked={values.scopes.includes(scope)}
                  />
                ))}
                {errors.scopes && (
                  <p id="scopes-error" className="text-sm text-destructive" role="alert">
                    {errors.scopes}
                  </p>
                )}
              </fieldset>
              <FormError message={errors.form} />
              <div>
                <Button type="submit" name="intent" value="create" pending={creating}>
                  Create key
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
