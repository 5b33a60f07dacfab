import { Form, Link, useActionData, useNavigation } from "react-router";
import { FormError } from "~/components/ui/form-error";
import type { Route } from "./+types/notifications";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, preferenceField } from "~/modules/notifications/notification-kinds";
import { notificationSettings, saveNotificationSettings } from "~/modules/notifications/preferences.server";
import { sendTelegramTest, telegramNotificationState } from "~/modules/notifications/telegram.server";
import { dataWithToast } from "~/lib/flash.server";
import { formFailure } from "~/lib/result";
import { hasRealEmail } from "~/modules/wallets/wallets.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Notifications") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const [settings, telegram] = await Promise.all([
    notificationSettings({ db, userId: user.id }),
    // Hidden without the platform's bot or the member's Telegram connection.
    telegramNotificationState({ db, social: services.env.social, userId: user.id }),
  ]);
  return { ...settings, hasEmail: hasRealEmail(user.email), telegramChat: telegram };
}

/**
 * The whole table is posted at once: a checked box is `on`, an unchecked one is absent (a form
 * without JavaScript sends only checked boxes), so every kind's two channels are read from it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = await request.formData();
  const db = services.database.db;
  if (form.get("intent") === "telegram-test") {
    const tested = await sendTelegramTest({ db, social: services.env.social, appUrl: services.env.APP_URL, userId: user.id, logger: services.logger });
    if (!tested.ok) return formFailure(tested);
    return dataWithToast({ errors: {} }, "Test message sent: choose what comes by Telegram below", { appUrl: services.env.APP_URL });
  }
  const on = (name: string) => form.get(name) === "on";
  const kinds = NOTIFICATION_KIND_NAMES.map((kind) => ({ kind, inbox: on(preferenceField("inbox", kind)), email: on(preferenceField("email", kind)) }));
  // Telegram's column is read only when the member can use it (its boxes are on the page).
  const telegram = (await telegramNotificationState({ db, social: services.env.social, userId: user.id }))?.started
    ? NOTIFICATION_KIND_NAMES.filter((kind) => on(`telegram:${kind}`))
    : undefined;
  await saveNotificationSettings({ db, userId: user.id, kinds, digest: on("digest"), ...(telegram ? { telegram } : {}) });
  return redirectWithToast(route("settings.notifications"), "Notification settings saved", { appUrl: services.env.APP_URL });
}

const checkbox = "size-4 shrink-0 cursor-pointer accent-lime-600";

export default function NotificationSettings({ loaderData: { kinds, digest, hasEmail, telegram, telegramChat } }: Route.ComponentProps) {
  const navigation = useNavigation();
  const actionData = useActionData<{ errors: Record<string, string> }>();
  const canTelegram = telegramChat?.started === true;
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") !== "telegram-test";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          What you are told, in your inbox (the bell), by e-mail{telegramChat ? " and on Telegram" : ""}. Every e-mail also has a link to stop that kind.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {telegramChat && <TelegramSetup chat={telegramChat} error={actionData?.errors.form} />}
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
                  {canTelegram && (
                    <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
                      Telegram
                    </th>
                  )}
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
                      {canTelegram && (
                        <td className="px-2 py-3 text-center">
                          <input
                            type="checkbox"
                            name={`telegram:${row.kind}`}
                            defaultChecked={telegram.includes(row.kind)}
                            className={checkbox}
                            aria-label={`${spec.label} by Telegram`}
                          />
                        </td>
                      )}
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
            <Button type="submit" pending={saving}>
              Save
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** Telegram's messages come from the platform's bot once the member pressed Start in it: the test proves it. */
function TelegramSetup({ chat, error }: { chat: { botUsername: string; started: boolean; blocked: boolean }; error?: string }) {
  const navigation = useNavigation();
  const testing = navigation.state === "submitting" && navigation.formData?.get("intent") === "telegram-test";
  const bot = `@${chat.botUsername}`;
  return (
    <Form method="post" className="grid gap-3 rounded-lg border p-3 text-sm">
      <input type="hidden" name="intent" value="telegram-test" />
      <p>
        {chat.started
          ? `Telegram messages come from ${bot}. Tick the kinds you want there.`
          : chat.blocked
            ? `You blocked ${bot} in Telegram, so nothing is sent there. Unblock it, press Start, then send a test message.`
            : `To get notifications by Telegram, open ${bot} in Telegram and press Start, then send a test message.`}
      </p>
      <FormError message={error} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="outline" pending={testing}>
          Send a test message
        </Button>
        <a className="underline underline-offset-4" href={`https://t.me/${encodeURIComponent(chat.botUsername)}`} target="_blank" rel="noreferrer">
          Open {bot} in Telegram
        </a>
      </div>
    </Form>
  );
}
