import { data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { SignInForm } from "~/components/auth/sign-in-form";
import { Card, CardContent } from "~/components/ui/card";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { failureMessage, formFailure } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { signInSchema } from "~/modules/auth/sign-in.schema";
import { sendSignInEmail, signInWithCode, signInWithPassword } from "~/modules/auth/sign-in.server";
import { getSession, safeRedirect } from "~/modules/auth/session.server";
import { Link } from "react-router";
import { useAppName } from "~/hooks/root-data";
import { route } from "~/lib/routes";
import { Sparkles } from "lucide-react";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Sign in") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getSession(context)) throw redirect(redirectTo);
  // Which way in the page opens on: the form's "instead" buttons open it so before the script has taken over.
  const method = url.searchParams.get("method") === "password" ? ("password" as const) : ("email" as const);
  return { redirectTo, method, linkFailed: url.searchParams.has("error") };
}

/** One action for the page and the modal: send the e-mail, check a code, or check a password. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const formData = await request.formData();
  // The code's six boxes are posted one value each (a form posted without the page's script may
  // have the whole code in the first).
  if (formData.get("intent") === "code") formData.set("code", formData.getAll("code").join(""));
  const form = parseForm(signInSchema, formData);
  if (!form.ok) {
    // A bad code keeps the member on the code step, where the error is shown; a bad address
    // stays in its field (the modal's and the script's field keep it anyway).
    const email = formData.get("email");
    if (formData.get("intent") === "code" && typeof email === "string") {
      return formFailure(form, { step: "code" as const, email });
    }
    return formFailure(form, { step: "email" as const, ...(typeof email === "string" ? { email } : {}) });
  }
  const input = form.data;
  const redirectTo = safeRedirect(input.redirectTo);

  if (input.intent === "send") {
    const sent = await sendSignInEmail(services, { request, email: input.email, redirectTo });
    const step = input.resend ? ("code" as const) : ("email" as const);
    // Any refusal to send (the cooldown, the auth service, the mail server) shows on the e-mail field, answered 429.
    if (!sent.ok) return data({ step, email: input.email, errors: { email: failureMessage(sent) } }, { status: 429 });
    return { step: "code" as const, email: input.email, resent: Boolean(input.resend) };
  }
  const result =
    input.intent === "code"
      ? await signInWithCode(services, { request, email: input.email, code: input.code })
      : await signInWithPassword(services, { request, email: input.email, password: input.password });
  if (!result.ok) {
    // A wrong guess and a limit alike show on the code or password field, answered 400.
    const field = input.intent === "code" ? "code" : "password";
    return data(
      { step: input.intent === "code" ? ("code" as const) : ("password" as const), email: input.email, errors: { [field]: failureMessage(result) } },
      { status: 400 },
    );
  }
  throw redirect(redirectTo, { headers: result.headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const appName = useAppName();
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      <Link to={route("welcome")} className="flex items-center gap-2 text-lg font-semibold">
        <span className="flex size-8 items-center justify-center rounded-lg bg-brand text-brand-foreground">
          <Sparkles className="size-4" />
        </span>
        {appName}
      </Link>
      <Card className="w-full max-w-sm">
        <CardContent>
          {loaderData.linkFailed && (
            <p role="alert" className="mb-4 rounded-md bg-destructive/10 p-3 text-sm text-destructive">
              That sign-in link has expired or was already used. Send yourself a new one.
            </p>
          )}
          <SignInForm redirectTo={loaderData.redirectTo} method={loaderData.method} posted={actionData} />
        </CardContent>
      </Card>
    </main>
  );
}
