import { Form, Link, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/privacy";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormError } from "~/components/ui/form-error";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { emailShares, setEmailShare } from "~/modules/projects/member-identity.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Privacy") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  return emailShares({ db: context.get(servicesContext).database.db, userId: user.id });
}

const shareSchema = z.object({ projectId: z.string().min(1).max(100), intent: z.enum(["share", "stop"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = shareSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(failure("conflict", "This page is out of date. Reload it and try again."));
  const shared = form.data.intent === "share";
  const result = await setEmailShare({ db: services.database.db, userId: user.id, projectId: form.data.projectId, shared });
  if (!result.ok) return formFailure(result);
  const said = shared ? `${result.projectName}'s team now sees your e-mail address` : `${result.projectName}'s team no longer sees your e-mail address`;
  return redirectWithToast(route("settings.privacy"), said, { appUrl: services.env.APP_URL });
}

export default function PrivacySettings({ loaderData: { email, projects } }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pendingFor = navigation.state === "submitting" ? navigation.formData?.get("projectId") : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacy</CardTitle>
        <CardDescription>
          The teams of the projects you take part in see your name, your linked wallets and your connected social accounts. They see your e-mail address only
          where you share it here, and you can stop sharing it at any time.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <FormError message={actionData?.errors.form} />
        {projects.length === 0 ? (
          <p className="text-sm text-muted-foreground">Once you take part in a project, it is listed here.</p>
        ) : (
          <ul className="grid divide-y" aria-label="Your e-mail address, project by project">
            {projects.map((p) => (
              <li key={p.projectId} className="flex flex-wrap items-center gap-3 py-3">
                <Link to={route("projects.show", { project: p.slug })} className="min-w-0 flex-1 truncate font-medium hover:underline">
                  {p.name}
                </Link>
                <Badge variant={p.shared ? "default" : "outline"}>{p.shared ? "E-mail shared" : "E-mail not shared"}</Badge>
                <Form method="post">
                  <input type="hidden" name="projectId" value={p.projectId} />
                  {p.shared ? (
                    <Button
                      type="submit"
                      name="intent"
                      value="stop"
                      variant="outline"
                      size="sm"
                      pending={pendingFor === p.projectId}
                      aria-label={`Stop sharing your e-mail address with ${p.name}`}
                    >
                      Stop sharing
                    </Button>
                  ) : (
                    <Button
                      type="submit"
                      name="intent"
                      value="share"
                      variant="outline"
                      size="sm"
                      disabled={!email}
                      pending={pendingFor === p.projectId}
                      aria-label={`Share your e-mail address with ${p.name}`}
                    >
                      Share my e-mail
                    </Button>
                  )}
                </Form>
              </li>
            ))}
          </ul>
        )}
        {email ? (
          <p className="text-xs text-muted-foreground">Shared as {email}.</p>
        ) : (
          <p className="text-xs text-muted-foreground">
            Your account has no e-mail address to share: add one in{" "}
            <Link to={route("settings.profile")} className="underline">
              Profile
            </Link>
            .
          </p>
        )}
      </CardContent>
    </Card>
  );
}
