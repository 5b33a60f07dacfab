import { useEffect } from "react";
import { data, redirect, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/connection";
import { ConnectedAccountCard, ConnectionActions, NotSetUp, ProviderMark, SybilNote, VerifyXLink } from "~/components/settings/social-connection";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormError } from "~/components/ui/form-error";
import { toast } from "~/components/ui/toaster";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { failure, formFailure } from "~/lib/result";
import { callAuth, describeAuthError } from "~/modules/auth/auth-call.server";
import { requireUser } from "~/modules/auth/session.server";
import { disconnect, linkErrorMessage, listConnections } from "~/modules/social/connections.server";
import { LINK_ERRORS } from "~/modules/social/social-oauth.server";
import { isConnectable } from "~/modules/social/social-config.server";
import { memberRoleGrants } from "~/modules/community/role-rewards.server";
import { ProjectRoles } from "~/components/settings/project-roles";
import { PROVIDER_LABELS, PROVIDER_READS, allowedAvatar, isSocialProvider, type SocialProvider } from "~/modules/social/providers";
import { servicesContext } from "~/services/services.server";
import { telegramConnectUrl } from "~/modules/social/telegram-login.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `${loaderData.label} · Connections` : "Connections") }];
}

function providerParam(value: string | undefined): SocialProvider {
  if (!value || !isSocialProvider(value)) throw data("No such connection", { status: 404 });
  return value;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const provider = providerParam(params.provider);
  const connections = await listConnections({ db: services.database.db, social: services.env.social, userId: user.id });
  const connection = connections.find((c) => c.provider === provider)!;
  const search = new URL(request.url).searchParams;
  const error = search.get("error");
  return {
    provider,
    label: connection.label,
    configured: connection.configured,
    account: connection.account ? { ...connection.account, avatarUrl: allowedAvatar(connection.account.avatarUrl) } : null,
    /** The provider's redirect came back refusing or failing the link. */
    linkError: error ? linkErrorMessage(provider, error) : null,
    /** A personal Instagram account was refused: the page's note on professional accounts would repeat it. */
    personalRefused: error === LINK_ERRORS.instagramPersonal,
    justConnected: search.get("connected") === "1" && connection.account !== null,
    verifyByCode: provider === "x" && Boolean(services.env.social.xBearerToken),
    /** Discord: the roles projects' bots gave (or are giving, or took back) this member. */
    roles: provider === "discord" ? await memberRoleGrants({ db: services.database.db, userId: user.id }) : [],
  };
}

const intentSchema = z.object({ intent: z.enum(["connect", "disconnect"]) });

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const provider = providerParam(params.provider);
  const label = PROVIDER_LABELS[provider];
  const form = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(failure("conflict", "This page is out of date. Reload it and try again."));
  const page = route("settings.connection", { provider });

  if (form.data.intent === "disconnect") {
    const result = await disconnect({ db: services.database.db, userId: user.id, provider });
    if (!result.ok) return formFailure(result);
    return redirectWithToast(page, `${label} disconnected`, { appUrl: services.env.APP_URL });
  }

  if (!isConnectable(services.env.social, provider)) return formFailure(failure("unavailable", `${label} is not set up on this server.`));
  // Telegram: its login page signs who the member is and comes back to our callback (no OAuth).
  if (provider === "telegram") return redirect(telegramConnectUrl(services.env.social, services.env.APP_URL));
  // better-auth starts the provider's authorization (state and PKCE kept server-side) and gives the URL to send the member to.
  const started = await callAuth(services, request, "/link-social", {
    provider,
    callbackURL: `${page}?connected=1`,
    errorCallbackURL: page,
    disableRedirect: true,
  });
  if (!started.ok) return formFailure(failure(started.status === 429 ? "limited" : "unavailable", describeAuthError(started)));
  const url = z.object({ url: z.url() }).safeParse(started.body);
  if (!url.success) return formFailure(failure("unavailable", `${label} could not be reached. Try again in a minute.`));
  return redirect(url.data.url, { headers: started.headers });
}

export default function ConnectionSettings({ loaderData }: Route.ComponentProps) {
  const { provider, label, configured, account, linkError, personalRefused, justConnected, verifyByCode } = loaderData;
  const actionData = useActionData<typeof action>();

  useEffect(() => {
    if (justConnected) toast.success(`${label} connected`);
  }, [justConnected, label]);

  return (
    <Card>
      <CardHeader className="flex-row items-start gap-3">
        <ProviderMark provider={provider} />
        <div className="grid gap-1">
          <CardTitle>{label}</CardTitle>
          <CardDescription>
            {account ? `Your ${label} account, used to check your ${label} tasks.` : `Connect your ${label} account so tasks on ${label} are checked for you.`}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        {linkError && (
          <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
            {linkError}
          </p>
        )}
        <FormError message={actionData?.errors.form} />
        {provider === "instagram" && !account && !personalRefused && (
          <p className="text-sm text-muted-foreground">
            Only Instagram professional accounts (business or creator) can connect: Instagram has closed its API to personal accounts. You can switch to a
            professional account for free in Instagram&apos;s settings.
          </p>
        )}
        {!configured && !account ? (
          <NotSetUp provider={provider} />
        ) : (
          <>
            {account ? (
              <ConnectedAccountCard provider={provider} account={account} />
            ) : (
              <p className="text-sm">
                You will sign in on {label} and allow Questline to read {PROVIDER_READS[provider]}. Questline never posts for you.
              </p>
            )}
            {configured ? <ConnectionActions provider={provider} connected={account !== null} /> : <NotSetUp provider={provider} />}
          </>
        )}
        {verifyByCode && !account && <VerifyXLink />}
        {loaderData.roles.length > 0 && <ProjectRoles roles={loaderData.roles} />}
        <SybilNote provider={provider} />
      </CardContent>
    </Card>
  );
}
