import { ExternalLink } from "lucide-react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/verify-x";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { redirectWithToast } from "~/lib/flash.server";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { formFailure } from "~/lib/result";
import { requireUser } from "~/modules/auth/session.server";
import { listConnections } from "~/modules/social/connections.server";
import { canVerifyXByPost, verificationCode, verificationPost, verifyXByPost } from "~/modules/social/verify-x.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Verify X account") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  if (!canVerifyXByPost(services.env.social)) throw data("Verifying X accounts by a post is not set up on this server.", { status: 404 });
  const db = services.database.db;
  const x = (await listConnections({ db, social: services.env.social, userId: user.id })).find((c) => c.provider === "x")!;
  if (x.account) return { connected: { handle: x.account.handle }, post: null };
  const code = await verificationCode({ db, userId: user.id });
  return { connected: null, post: verificationPost(code, services.env.APP_NAME) };
}

const verifySchema = z.object({ postUrl: z.string().trim().min(1, "Paste the link of your post").max(300, "That link is too long") });

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = parseForm(verifySchema, await request.formData());
  if (!form.ok) return formFailure(form);
  const result = await verifyXByPost({
    db: services.database.db,
    social: services.env.social,
    logger: services.logger,
    userId: user.id,
    postUrl: form.data.postUrl,
  });
  if (!result.ok) return formFailure(result, { postUrl: form.data.postUrl });
  return redirectWithToast(route("settings.connection", { provider: "x" }), `X account @${result.handle} verified`, { appUrl: services.env.APP_URL });
}

export default function VerifyX({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const errors = actionData?.errors ?? {};
  const typedUrl = actionData && "postUrl" in actionData && typeof actionData.postUrl === "string" ? actionData.postUrl : "";
  const { connected, post } = loaderData;
  return (
    <>
      <PageHeader title="Verify X account" description="Prove an X account is yours by posting a code from it, without signing in with X." />
      <Card className="max-w-2xl">
        {connected || !post ? (
          <CardHeader>
            <CardTitle>Your X account is connected</CardTitle>
            <CardDescription>
              @{connected?.handle} is your X account. See it in{" "}
              <Link className="underline underline-offset-4" to={route("settings.connection", { provider: "x" })}>
                Settings › Connections › X
              </Link>
              .
            </CardDescription>
          </CardHeader>
        ) : (
          <>
            <CardHeader>
              <CardTitle>Post your code from X</CardTitle>
              <CardDescription>
                Anyone can read a public post, so posting this code from your account shows it is yours. You can delete the post afterwards.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-5">
              <ol className="grid list-decimal gap-4 pl-5 text-sm">
                <li>
                  {/* The grid inside the item: a grid item loses its list marker and its number. */}
                  <div className="grid gap-2">
                    <span>Post this text from your X account:</span>
                    <code className="rounded-md border bg-muted px-3 py-2 font-mono text-sm wrap-anywhere select-all" data-testid="verify-post-text">
                      {post}
                    </code>
                    <a
                      className="inline-flex w-fit items-center gap-1 font-medium underline underline-offset-4"
                      href={`https://x.com/intent/post?${new URLSearchParams({ text: post })}`}
                      target="_blank"
                      rel="noreferrer"
                    >
                      Open X with this text <ExternalLink aria-hidden className="size-3.5" />
                    </a>
                  </div>
                </li>
                <li>Copy the post&apos;s link (Share › Copy link) and paste it below.</li>
              </ol>
              <Form method="post" className="grid gap-4" noValidate>
                <FormError message={errors.form} />
                <Field id="postUrl" label="Link of your post" error={errors.postUrl}>
                  <Input {...fieldProps("postUrl", errors.postUrl)} inputMode="url" placeholder="https://x.com/yourname/status/…" defaultValue={typedUrl} />
                </Field>
                <Button type="submit" className="w-fit" pending={navigation.state === "submitting"}>
                  Verify
                </Button>
              </Form>
              <p className="text-sm text-muted-foreground">
                One X account belongs to one member: an account already connected to someone else cannot be verified here.
              </p>
            </CardContent>
          </>
        )}
      </Card>
    </>
  );
}
