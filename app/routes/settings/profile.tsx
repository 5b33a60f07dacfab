import { useEffect } from "react";
import { data, useActionData, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/profile";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { callAuth, describeAuthError } from "~/modules/auth/auth-call.server";
import { requireUser } from "~/modules/auth/session.server";
import { deleteAvatar, saveAvatar } from "~/modules/users/avatar.server";
import { emailChangeCodeSchema, emailChangeSchema, profileSchema } from "~/modules/users/profile.schema";
import { getProfile, updateProfile } from "~/modules/users/profile.server";
import { listWallets } from "~/modules/wallets/wallets.server";
import { LinkedWallets } from "~/components/settings/linked-wallets";
import { EmailCard, ProfileCard, type ProfileActionData } from "~/components/settings/profile-cards";

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

type ActionData = ProfileActionData;

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
    if (form.data.newEmail === user.email.toLowerCase()) {
      return data<ActionData>({ intent, errors: { newEmail: "That is already your e-mail address." } }, { status: 400 });
    }
    const result = await callAuth(services, request, "/email-otp/request-email-change", { newEmail: form.data.newEmail });
    if (!result.ok) return data<ActionData>({ intent, errors: { newEmail: describeAuthError(result) } }, { status: result.status });
    return data<ActionData>({ intent, newEmail: form.data.newEmail, sent: true });
  }

  if (intent === "email-confirm") {
    const form = parseForm(emailChangeCodeSchema, formData);
    const newEmail = String(formData.get("newEmail") ?? "");
    if (!form.ok) return formFailure<ActionData>(form, { intent, newEmail });
    const result = await callAuth(services, request, "/email-otp/change-email", { newEmail: form.data.newEmail, otp: form.data.code });
    if (!result.ok) return data<ActionData>({ intent, newEmail, errors: { code: describeAuthError(result) } }, { status: 400 });
    return data<ActionData>({ intent, newEmail, changed: true }, { headers: result.headers });
  }

  const values = { name: String(formData.get("name") ?? ""), username: String(formData.get("username") ?? "") };
  const form = parseForm(profileSchema, formData);
  const avatar = formData.get("avatar");
  if (!form.ok) return formFailure<ActionData>(form, { intent: "profile", values });
  let image: string | undefined;
  if (avatar instanceof File && avatar.size > 0) {
    const saved = await saveAvatar({ dataDir: services.env.DATA_DIR, userId: user.id, file: avatar });
    if (!saved.ok) return formFailure<ActionData>(saved, { intent: "profile", values });
    image = saved.url;
  }

  const result = await updateProfile({ db: services.database.db, userId: user.id, ...form.data, image });
  if (!result.ok) {
    if (image) await deleteAvatar({ dataDir: services.env.DATA_DIR, url: image });
    return formFailure<ActionData>(result, { intent: "profile", values });
  }
  if (image) await deleteAvatar({ dataDir: services.env.DATA_DIR, url: user.image ?? null });
  return data<ActionData>({ intent: "profile", saved: true });
}

export default function ProfileSettings({ loaderData: { profile, wallets } }: Route.ComponentProps) {
  const actionData = useActionData<ProfileActionData>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const profileResult = actionData?.intent === "profile" ? actionData : undefined;
  const emailRequest = actionData?.intent === "email-request" ? actionData : undefined;
  const emailConfirm = actionData?.intent === "email-confirm" ? actionData : undefined;
  const unlink = actionData?.intent === "unlink-wallet" ? actionData : undefined;

  useEffect(() => {
    if (profileResult?.saved) toast.success("Profile saved");
    if (emailRequest?.sent) toast.success(`We sent a code to ${emailRequest.newEmail}`);
    if (emailConfirm?.changed) toast.success("Your e-mail is changed");
    if (unlink?.unlinked) toast.success("Wallet unlinked");
  }, [profileResult, emailRequest, emailConfirm, unlink]);

  return (
    <div className="grid gap-6">
      <ProfileCard profile={profile} result={profileResult} pending={submitting === "profile"} />
      <EmailCard email={profile.email} request={emailRequest} confirm={emailConfirm} submitting={submitting} />
      <LinkedWallets wallets={wallets} error={unlink?.error} />
    </div>
  );
}
