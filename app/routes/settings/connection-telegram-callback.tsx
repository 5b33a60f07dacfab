import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/connection-telegram-callback";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormError } from "~/components/ui/form-error";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { connectTelegram, decodeAuthResult } from "~/modules/social/telegram-login.server";
import { servicesContext } from "~/services/services.server";

/**
 * Telegram's login page comes back here with `#tgAuthResult=<base64url JSON>` in the fragment,
 * which only the browser sees: the page posts it to the action, which checks Telegram's signature
 * and links the account.
 */

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Connecting Telegram") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return null;
}

const resultSchema = z.object({ result: z.string().min(1).max(4000) });

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = resultSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(failure("conflict", "Telegram sent nothing back. Nothing changed: connect again."));
  const linked = await connectTelegram({
    db: services.database.db,
    social: services.env.social,
    userId: user.id,
    authData: decodeAuthResult(form.data.result),
  });
  if (!linked.ok) return formFailure(linked);
  return redirectWithToast(route("settings.connection", { provider: "telegram" }), `Telegram connected${linked.handle ? `: ${linked.handle}` : ""}`, {
    appUrl: services.env.APP_URL,
  });
}

/** The signed result in the URL's fragment, or null (the login was cancelled, or the page was opened by hand). */
function authResultFromHash(hash: string): string | null {
  const match = /(?:^#|&)tgAuthResult=([A-Za-z0-9_=-]+)/.exec(hash);
  return match?.[1] ?? null;
}

export default function TelegramCallback() {
  const fetcher = useFetcher<{ errors: Record<string, string> }>();
  const sent = useRef(false);
  const page = route("settings.connection", { provider: "telegram" });

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const result = authResultFromHash(window.location.hash);
    // The fragment holds the member's signed login: out of the address bar and the history.
    window.history.replaceState(null, "", window.location.pathname);
    if (result) void fetcher.submit({ result }, { method: "post" });
    else void fetcher.submit({ result: "" }, { method: "post" });
  }, [fetcher]);

  const error = fetcher.data?.errors.form ?? Object.values(fetcher.data?.errors ?? {})[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connecting Telegram</CardTitle>
        <CardDescription>Checking Telegram&apos;s signature on your login.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <noscript>
          <p className="text-sm">Telegram&apos;s login needs JavaScript: turn it on in your browser, then connect again.</p>
        </noscript>
        {error ? (
          <>
            <FormError message={error} />
            <Link className="text-sm underline underline-offset-4" to={page}>
              Back to Telegram in Connections
            </Link>
          </>
        ) : (
          <p className="text-sm text-muted-foreground" role="status">
            {fetcher.state === "idle" ? "One moment…" : "Connecting…"}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
