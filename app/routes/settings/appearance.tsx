import type { Route } from "./+types/appearance";
import { AppearanceSwitch } from "~/components/appearance-switch";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { requireUser } from "~/modules/auth/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return null;
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Appearance") }];
}

export default function AppearanceSettings() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Light, dark, or the same as your device.</CardDescription>
      </CardHeader>
      <CardContent>
        <AppearanceSwitch />
      </CardContent>
    </Card>
  );
}
