import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { PageHeader } from "~/components/page-header";
import { UserAvatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/lib/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { getProfile } from "~/modules/users/profile.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Dashboard") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const profile = await getProfile({ db: context.get(servicesContext).database.db, userId: user.id });
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile };
}

export default function Dashboard({ loaderData: { profile } }: Route.ComponentProps) {
  const display = profile.name || profile.username || profile.email?.split("@")[0] || "member";
  const steps = [
    { done: Boolean(profile.name), label: "Choose a display name", to: route("settings.profile") },
    { done: Boolean(profile.username), label: "Pick a username", to: route("settings.profile") },
    { done: Boolean(profile.image), label: "Upload an avatar", to: route("settings.profile") },
    profile.email
      ? { done: profile.hasPassword, label: "Set a password", to: route("settings.password") }
      : { done: false, label: "Add an e-mail address", to: route("settings.profile") },
  ];
  const remaining = steps.filter((s) => !s.done).length;
  return (
    <>
      <PageHeader title={`Welcome back, ${display}`} description="Your Questline home." />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <CardContent className="flex items-center gap-4">
            <UserAvatar name={display} image={profile.image} className="size-14 text-base" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{display}</p>
              {profile.username && <p className="truncate text-sm text-muted-foreground">@{profile.username}</p>}
              {profile.email && <p className="truncate text-sm text-muted-foreground">{profile.email}</p>}
              <p className="mt-1 text-xs text-muted-foreground">
                Member since{" "}
                {new Date(profile.createdAt).toLocaleDateString("en", { year: "numeric", month: "long", day: "numeric" })}
              </p>
            </div>
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{remaining === 0 ? "Your profile is complete" : "Finish your profile"}</CardTitle>
            <CardDescription>
              {remaining === 0 ? "Everything is set up." : `${remaining} of ${steps.length} steps left.`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2">
              {steps.map((step) => (
                <li key={step.label} className="flex items-center justify-between gap-3 text-sm">
                  <span className="flex items-center gap-2">
                    {step.done ? (
                      <CheckCircle2 className="size-4 text-green-600 dark:text-green-400" aria-label="Done" />
                    ) : (
                      <Circle className="size-4 text-muted-foreground" aria-label="To do" />
                    )}
                    <span className={step.done ? "text-muted-foreground line-through" : undefined}>{step.label}</span>
                  </span>
                  {!step.done && (
                    <Button asChild size="sm" variant="outline">
                      <Link to={step.to}>Open</Link>
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
