import { useEffect } from "react";
import { data, useActionData, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/leaderboard";
import { LeaderboardSettingsForm, type LeaderboardSettingsValues } from "~/components/leaderboards/leaderboard-settings-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { leaderboardSettingsSchema } from "~/modules/leaderboards/leaderboard-settings.schema";
import { saveLeaderboardSettings } from "~/modules/leaderboards/leaderboard-settings.server";
import { leaderboardPreferenceOf } from "~/modules/leaderboards/member-stats.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Leaderboard settings") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const preference = await leaderboardPreferenceOf({ db: context.get(servicesContext).database.db, userId: user.id });
  return { preference, profileName: user.name || ((user.username as string | null) ?? "") };
}

type ActionData = { errors?: Record<string, string>; values?: LeaderboardSettingsValues; saved?: { visible: boolean } };

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const formData = await request.formData();
  const form = parseForm(leaderboardSettingsSchema, formData);
  if (!form.ok) {
    const values = { visible: formData.get("visible") === "on", displayName: String(formData.get("displayName") ?? "") };
    return data<ActionData>({ errors: form.errors, values }, { status: 400 });
  }
  await saveLeaderboardSettings({ db: context.get(servicesContext).database.db, userId: user.id, settings: form.data });
  return data<ActionData>({ saved: { visible: form.data.visible } });
}

export default function LeaderboardSettings({ loaderData: { preference, profileName } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();

  useEffect(() => {
    if (actionData?.saved) toast.success(actionData.saved.visible ? "Leaderboard settings saved" : "Saved: you are hidden from public leaderboards");
  }, [actionData]);

  const values = actionData?.values ?? { visible: preference.visible, displayName: preference.displayName ?? "" };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Leaderboard</CardTitle>
        <CardDescription>Choose whether others see you on leaderboards, and under which name.</CardDescription>
      </CardHeader>
      <CardContent>
        <LeaderboardSettingsForm
          key={`${preference.visible}:${preference.displayName ?? ""}`}
          values={values}
          profileName={profileName}
          errors={actionData?.errors ?? {}}
          pending={navigation.state === "submitting"}
        />
      </CardContent>
    </Card>
  );
}
