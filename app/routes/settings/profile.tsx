import { useEffect, useRef } from "react";
import { data, Form, useActionData, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/profile";
import { UserAvatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { ImageInput } from "~/components/ui/image-input";
import { Input } from "~/components/ui/input";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { callAuth, describeAuthError } from "~/modules/auth/auth-call.server";
import { requireUser } from "~/modules/auth/session.server";
import { deleteAvatar, saveAvatar } from "~/modules/users/avatar.server";
import { emailChangeCodeSchema, emailChangeSchema, profileSchema } from "~/modules/users/profile.schema";
import { getProfile, updateProfile } from "~/modules/users/profile.server";
import { listWallets } from "~/modules/wallets/wallets.server";
import { LinkedWallets } from "~/components/settings/linked-wallets";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Profile") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const profile = await getProfile({ db, userId: user.id });
  if (!profile) throw data("Not found", { status: 404 });
  const wallets = await listWallets({ db, userId: user.id });
  return { profile, wallets: wallets.map(({ address, chainIds, isPrimary }) => ({ address, chainIds, isPrimary })) };
}

type Errors = Record<string, string>;
type ActionData =
  | { intent: "profile"; errors?: Errors; values?: Record<string, string>; saved?: boolean }
  | { intent: "email-request"; errors?: Errors; newEmail?: string; sent?: boolean }
  | { intent: "email-confirm"; errors?: Errors; newEmail: string; changed?: boolean }
  | { intent: "unlink-wallet"; error?: string; unlinked?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "unlink-wallet") {
    const address = String(formData.get("address") ?? "");
    const result = await callAuth(services, request, "/wallet/unlink", { address });
    if (!result.ok) return data<ActionData>({ intent, error: describeAuthError(result) }, { status: result.status });
    return data<ActionData>({ intent, unlinked: true });
  }

  if (intent === "email-request") {
    const form = parseForm(emailChangeSchema, formData);
    if (!form.ok) return data<ActionData>({ intent, errors: { newEmail: form.errors.newEmail! } }, { status: 400 });
    const result = await callAuth(services, request, "/email-otp/request-email-change", { newEmail: form.data.newEmail });
    if (!result.ok) return data<ActionData>({ intent, errors: { newEmail: describeAuthError(result) } }, { status: result.status });
    return data<ActionData>({ intent, newEmail: form.data.newEmail, sent: true });
  }

  if (intent === "email-confirm") {
    const form = parseForm(emailChangeCodeSchema, formData);
    const newEmail = String(formData.get("newEmail") ?? "");
    if (!form.ok) return data<ActionData>({ intent, newEmail, errors: form.errors }, { status: 400 });
    const result = await callAuth(services, request, "/email-otp/change-email", { newEmail: form.data.newEmail, otp: form.data.code });
    if (!result.ok) return data<ActionData>({ intent, newEmail, errors: { code: describeAuthError(result) } }, { status: 400 });
    return data<ActionData>({ intent, newEmail, changed: true }, { headers: result.headers });
  }

  const values = { name: String(formData.get("name") ?? ""), username: String(formData.get("username") ?? "") };
  const form = parseForm(profileSchema, formData);
  const avatar = formData.get("avatar");
  const errors: Errors = form.ok ? {} : { ...form.errors };
  let image: string | undefined;
  if (form.ok && avatar instanceof File && avatar.size > 0) {
    const saved = await saveAvatar({ dataDir: services.env.DATA_DIR, userId: user.id, file: avatar });
    if (saved.ok) image = saved.url;
    else errors.avatar = saved.error;
  }
  if (!form.ok || errors.avatar) return data<ActionData>({ intent: "profile", errors, values }, { status: 400 });

  const result = await updateProfile({ db: services.database.db, userId: user.id, ...form.data, image });
  if (!result.ok) {
    if (image) await deleteAvatar({ dataDir: services.env.DATA_DIR, url: image });
    return data<ActionData>({ intent: "profile", errors: { [result.field]: result.error }, values }, { status: 400 });
  }
  if (image) await deleteAvatar({ dataDir: services.env.DATA_DIR, url: user.image ?? null });
  return data<ActionData>({ intent: "profile", saved: true });
}

export default function ProfileSettings({ loaderData: { profile, wallets } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const profileResult = actionData?.intent === "profile" ? actionData : undefined;
  const errors = profileResult?.errors ?? {};
  const values = profileResult?.values;
  const emailRequest = actionData?.intent === "email-request" ? actionData : undefined;
  const emailConfirm = actionData?.intent === "email-confirm" ? actionData : undefined;
  const unlink = actionData?.intent === "unlink-wallet" ? actionData : undefined;
  const pendingEmail = (emailRequest?.sent && emailRequest.newEmail) || (emailConfirm && !emailConfirm.changed ? emailConfirm.newEmail : undefined);
  const profileForm = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (profileResult?.saved) toast.success("Profile saved");
    if (emailRequest?.sent) toast.success(`We sent a code to ${emailRequest.newEmail}`);
    if (emailConfirm?.changed) toast.success("Your e-mail is changed");
    if (unlink?.unlinked) toast.success("Wallet unlinked");
  }, [profileResult, emailRequest, emailConfirm, unlink]);

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>How other members see you.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" encType="multipart/form-data" className="grid gap-5" ref={profileForm} noValidate>
            <input type="hidden" name="intent" value="profile" />
            <div className="flex items-center gap-4">
              <UserAvatar name={profile.name || profile.email || "?"} image={profile.image} className="size-16 text-lg" />
              <div className="grid flex-1 gap-2">
                <ImageInput id="avatar" label="Avatar" hint="PNG, JPEG, GIF or WebP, up to 2 MB." error={errors.avatar} />
              </div>
            </div>
            <Field id="name" label="Display name" error={errors.name}>
              <Input {...fieldProps("name", errors.name)} defaultValue={values?.name ?? profile.name} autoComplete="nickname" maxLength={50} />
            </Field>
            <Field id="username" label="Username" hint="3–30 letters, digits or underscores. Unique on Questline." error={errors.username}>
              <Input
                {...fieldProps("username", errors.username)}
                defaultValue={values?.username ?? profile.username ?? ""}
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
              />
            </Field>
            <Button type="submit" className="w-fit" pending={submitting === "profile"}>
              Save profile
            </Button>
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>E-mail</CardTitle>
          <CardDescription>
            {profile.email ? (
              <>
                You sign in with <strong className="text-foreground wrap-anywhere">{profile.email}</strong>. To change it, we send a code to the new address.
              </>
            ) : (
              "Add an e-mail to sign in without your wallet. We send a code to confirm it."
            )}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {pendingEmail ? (
            <Form method="post" className="grid gap-4" key="confirm" noValidate>
              <input type="hidden" name="intent" value="email-confirm" />
              <input type="hidden" name="newEmail" value={pendingEmail} />
              <Field id="code" label={`Code sent to ${pendingEmail}`} error={emailConfirm?.errors?.code}>
                <Input
                  {...fieldProps("code", emailConfirm?.errors?.code)}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  className="max-w-40 tracking-[0.4em]"
                />
              </Field>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" pending={submitting === "email-confirm"}>
                  Confirm new e-mail
                </Button>
              </div>
            </Form>
          ) : (
            <Form method="post" className="grid gap-4" key="request" noValidate>
              <input type="hidden" name="intent" value="email-request" />
              <Field id="newEmail" label="New e-mail" error={emailRequest?.errors?.newEmail}>
                <Input {...fieldProps("newEmail", emailRequest?.errors?.newEmail)} type="email" autoComplete="email" />
              </Field>
              <Button type="submit" variant="outline" className="w-fit" pending={submitting === "email-request"}>
                Send code
              </Button>
            </Form>
          )}
        </CardContent>
      </Card>

      <LinkedWallets wallets={wallets} error={unlink?.error} />
    </div>
  );
}
