import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router";
import { UserAvatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";

export type DashboardProfile = {
  name: string;
  username: string | null;
  email: string | null;
  image: string | null;
  createdAt: Date | string;
  hasPassword: boolean;
};

export function displayNameOf(profile: DashboardProfile) {
  return profile.name || profile.username || profile.email?.split("@")[0] || "member";
}

/** The day a member joined, the same on the server and in the browser (UTC); made once. */
const MEMBER_SINCE = new Intl.DateTimeFormat("en", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** Who the member is, and what is left to set up in their profile. */
export function ProfileCards({ profile }: { profile: DashboardProfile }) {
  const display = displayNameOf(profile);
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
      <Card className="lg:col-span-1">
        <CardContent className="flex items-center gap-4">
          <UserAvatar name={display} image={profile.image} className="size-14 text-base" />
          <div className="min-w-0">
            <p className="truncate font-semibold">{display}</p>
            {profile.username && <p className="truncate text-sm text-muted-foreground">@{profile.username}</p>}
            {profile.email && <p className="truncate text-sm text-muted-foreground">{profile.email}</p>}
            <p className="mt-1 text-xs text-muted-foreground">Member since {MEMBER_SINCE.format(new Date(profile.createdAt))}</p>
          </div>
        </CardContent>
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>{remaining === 0 ? "Your profile is complete" : "Finish your profile"}</CardTitle>
          <CardDescription>{remaining === 0 ? "Everything is set up." : `${remaining} of ${steps.length} steps left.`}</CardDescription>
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
    </>
  );
}
