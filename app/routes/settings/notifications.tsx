import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/notifications";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, preferenceField } from "~/modules/notifications/notification-kinds";
import { notificationSettings, saveNotificationSettings } from "~/modules/notifications/preferences.server";
import { hasRealEmail } from "~/modules/wallets/wallets.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Notifications") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const settings = await notificationSettings({ db: context.get(servicesContext).database.db, userId: user.id });
  return { ...settings, hasEmail: hasRealEmail(user.email) };
}

/**
 * The whole table is posted at once: a checked box is `on`, an unchecked one is absent (a form
 * without JavaScript sends only checked boxes), so every kind's two channels are read from it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = await request.formData();
  const on = (name: string) => form.get(name) === "on";
  const kinds = NOTIFICATION_KIND_NAMES.map((kind) => ({ kind, inbox: on(preferenceField("inbox", kind)), email: on(preferenceField("email", kind)) }));
  await saveNotificationSettings({ db: services.database.db, userId: user.id, kinds, digest: on("digest") });
  return redirectWithToast(route("settings.notifications"), "Notification settings saved", { appUrl: services.env.APP_URL });
}

const checkbox = "size-4 shrink-0 cursor-pointer accent-lime-600";

export default function NotificationSettings({ loaderData: { kinds, digest, hasEmail } }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>What you are told, in your inbox (the bell) and by e-mail. Every e-mail also has a link to stop that kind.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-6">
          {!hasEmail && (
            <p className="rounded-md bg-muted p-3 text-sm" role="status">
              Your account has no e-mail address yet, so no e-mail is sent: add one in{" "}
              <Link to={route("settings.profile")} className="underline">
                Profile
              </Link>
              .
            </p>
          )}
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Notifications by kind and channel</caption>
              <thead>
                <tr className="border-b text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Kind
                  </th>
                  <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
                    Inbox
                  </th>
                  <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
                    E-mail
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {kinds.map((row) => {
                  const spec = NOTIFICATION_KINDS[row.kind];
                  return (
                    <tr key={row.kind}>
                      <th scope="row" className="py-3 pr-3 text-left font-normal">
                        <span className="font-medium">{spec.label}</span>
                        <span className="block text-xs text-muted-foreground">{spec.about}</span>
                      </th>
                      <td className="px-2 py-3 text-center">
                        <input
                          type="checkbox"
                          name={preferenceField("inbox", row.kind)}
                          defaultChecked={row.inbox}
                          className={checkbox}
                          aria-label={`${spec.label} in your inbox`}
                        />
                      </td>
                      <td className="px-2 py-3 text-center">
                        <input
                          type="checkbox"
                          name={preferenceField("email", row.kind)}
                          defaultChecked={row.email}
                          className={checkbox}
                          aria-label={`${spec.label} by e-mail`}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <label className="flex items-start gap-3 rounded-lg border p-3 text-sm">
            <input type="checkbox" name="digest" defaultChecked={digest} className={`${checkbox} mt-0.5`} />
            <span>
              <span className="font-medium">One daily digest instead of single e-mails</span>
              <span className="block text-xs text-muted-foreground">
                The e-mails you chose above come together once a day. Past a few e-mails in an hour, the rest wait for the digest anyway.
              </span>
            </span>
          </label>
          <div>
            <Button type="submit" pending={navigation.state === "submitting"}>
              Save
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
