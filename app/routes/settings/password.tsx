import { useEffect } from "react";
import { data, Form, useActionData, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/password";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure, invalid } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { changePassword, setPassword } from "~/modules/users/password.server";
import { passwordSchema } from "~/modules/users/profile.schema";
import { getProfile } from "~/modules/users/profile.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Password") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const profile = await getProfile({ db: context.get(servicesContext).database.db, userId: user.id });
  return { hasPassword: Boolean(profile?.hasPassword) };
}

type ActionData = { errors?: Record<string, string>; saved?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = parseForm(passwordSchema, await request.formData());
  if (!form.ok) return formFailure(form);
  const profile = await getProfile({ db: services.database.db, userId: user.id });
  const { currentPassword, newPassword } = form.data;
  if (profile?.hasPassword) {
    if (!currentPassword) return formFailure(invalid("currentPassword", "Enter your current password"));
    const result = await changePassword(services, { request, currentPassword, newPassword });
    if (!result.ok) return formFailure(result);
    return data<ActionData>({ saved: true }, { headers: result.headers });
  }
  const result = await setPassword(services, { request, newPassword });
  if (!result.ok) return formFailure(result);
  return data<ActionData>({ saved: true });
}

export default function PasswordSettings({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const errors = actionData?.errors ?? {};

  useEffect(() => {
    if (actionData?.saved) toast.success("Password saved");
  }, [actionData]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{loaderData.hasPassword ? "Change password" : "Set a password"}</CardTitle>
        <CardDescription>
          {loaderData.hasPassword ? "Other devices are signed out when you change it." : "Sign in with your e-mail and a password, as well as by link or code."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid max-w-md gap-4" key={actionData?.saved ? "saved" : "form"} noValidate>
          {loaderData.hasPassword && (
            <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
              <Input {...fieldProps("currentPassword", errors.currentPassword)} type="password" autoComplete="current-password" />
            </Field>
          )}
          <Field id="newPassword" label="New password" hint="At least 8 characters." error={errors.newPassword}>
            <Input {...fieldProps("newPassword", errors.newPassword)} type="password" autoComplete="new-password" />
          </Field>
          <Field id="confirmPassword" label="Confirm new password" error={errors.confirmPassword}>
            <Input {...fieldProps("confirmPassword", errors.confirmPassword)} type="password" autoComplete="new-password" />
          </Field>
          <Button type="submit" className="w-fit" pending={navigation.state === "submitting"}>
            Save password
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
