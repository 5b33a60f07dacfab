import { MailX, Sparkles } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/unsubscribe";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useAppName } from "~/hooks/root-data";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { NOTIFICATION_KINDS } from "~/modules/notifications/notification-kinds";
import { turnOffEmail } from "~/modules/notifications/preferences.server";
import { readUnsubscribeToken, type UnsubscribeScope } from "~/modules/notifications/unsubscribe.server";

/**
 * One-click unsubscribe (RFC 8058), no sign-in: the link of a notification mail. Opening it
 * changes nothing (link scanners open links); its one button, or a mail client's
 * `List-Unsubscribe=One-Click` POST, turns that e-mail off. The token authorizes it (see
 * server/http.ts for why its POST is taken from any origin).
 */
export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Unsubscribe") }, { name: "robots", content: "noindex" }];
}

const whatOf = (scope: UnsubscribeScope) => (scope === "all" ? "all e-mails" : `“${NOTIFICATION_KINDS[scope].label}” e-mails`);

export function loader({ params, context }: Route.LoaderArgs) {
  const found = readUnsubscribeToken({ secret: context.get(servicesContext).env.AUTH_SECRET, token: params.token });
  if (!found) return data({ what: null }, { status: 404 });
  return { what: whatOf(found.scope) };
}

const oneClick = z.object({ "List-Unsubscribe": z.literal("One-Click") });

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const found = readUnsubscribeToken({ secret: services.env.AUTH_SECRET, token: params.token });
  if (!found) return data({ done: false as const, error: "This link is not valid: open Settings › Notifications instead." }, { status: 404 });
  const form = oneClick.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return data({ done: false as const, error: "Use the button to unsubscribe." }, { status: 400 });
  await turnOffEmail({ db: services.database.db, userId: found.userId, kind: found.scope });
  return { done: true as const, what: whatOf(found.scope) };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const appName = useAppName();
  const navigation = useNavigation();
  const done = actionData?.done === true;
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      <Link to={route("welcome")} className="flex items-center gap-2 text-lg font-semibold">
        <span className="flex size-8 items-center justify-center rounded-lg bg-brand text-brand-foreground">
          <Sparkles className="size-4" aria-hidden />
        </span>
        {appName}
      </Link>
      <Card className="w-full max-w-sm">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <MailX className="size-5" aria-hidden /> {done ? "Unsubscribed" : "Unsubscribe"}
          </CardTitle>
          <CardDescription>
            {loaderData.what === null
              ? "This unsubscribe link is not valid. Sign in and choose your e-mails in Settings › Notifications."
              : done
                ? `You will get no more ${actionData.what} from ${appName}. Your inbox in the app still shows them.`
                : `Stop ${loaderData.what} from ${appName}? Notifications stay in your inbox in the app.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {actionData && !actionData.done && (
            <p role="alert" className="text-sm text-destructive">
              {actionData.error}
            </p>
          )}
          {loaderData.what !== null && !done && (
            <Form method="post">
              <input type="hidden" name="List-Unsubscribe" value="One-Click" />
              <Button type="submit" className="w-full" pending={navigation.state === "submitting"}>
                Unsubscribe
              </Button>
            </Form>
          )}
          <p className="text-xs text-muted-foreground">
            Choose every kind and channel in{" "}
            <Link to={route("settings.notifications")} className="underline">
              Settings › Notifications
            </Link>{" "}
            (sign-in needed).
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
