import { CircleAlert, CircleCheck, CircleX, Clock, Link2Off, LogIn } from "lucide-react";
import { useEffect, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { route } from "~/lib/routes";
import { shortAddress } from "~/wallet/chains";
import type { AnswerActionData } from "./invitations-card";
import { ProjectLogo } from "./project-logo";
import { formatDate, ROLE_DESCRIPTIONS, ROLE_LABELS, type TeamRole } from "./roles";

type InviteView = {
  id: string;
  role: TeamRole;
  state: "pending" | "accepted" | "declined" | "revoked" | "expired";
  sentTo: string;
  expiresAt: Date | string;
  project: { slug: string; name: string; logoUrl: string | null; description: string };
};

/** /invites/:token: the project and role, and Accept / Decline, sign-in, or why it can no longer be answered. */
export function InviteAnswer({
  invitation,
  signedIn,
  signIn,
  actionData,
}: {
  invitation: InviteView | null;
  signedIn: boolean;
  signIn: string;
  actionData?: AnswerActionData;
}) {
  // A decline is said by the page once its data reloads (see the action); a refusal here.
  useEffect(() => {
    if (actionData && !actionData.ok) toast.error(actionData.errors.form ?? "That did not work.");
  }, [actionData]);

  if (!invitation) {
    return (
      <Frame>
        <Card>
          <CardHeader>
            <StateIcon icon={<Link2Off />} />
            <h1 className="text-lg leading-none font-semibold">This invitation link is not valid</h1>
            <CardDescription>
              It may have been replaced by a newer link. Ask the team to resend the invitation, or find it under Invitations once you are signed in.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline">
              <Link to={signedIn ? route("projects.index") : signIn}>{signedIn ? "Browse projects" : "Sign in"}</Link>
            </Button>
          </CardContent>
        </Card>
      </Frame>
    );
  }

  const { project } = invitation;
  const sentTo = invitation.sentTo.startsWith("0x") ? shortAddress(invitation.sentTo) : invitation.sentTo;
  return (
    <Frame>
      <Card>
        <CardHeader className="items-center text-center">
          <ProjectLogo name={project.name} logoUrl={project.logoUrl} className="size-16 text-lg" />
          <p className="mt-2 text-sm text-muted-foreground">You are invited to join the team of</p>
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{project.name}</h1>
          <div className="mt-1 grid justify-items-center gap-1">
            <Badge variant="brand">{ROLE_LABELS[invitation.role]}</Badge>
            <p className="max-w-sm text-sm text-muted-foreground">{ROLE_DESCRIPTIONS[invitation.role]}</p>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-center text-xs text-muted-foreground">
            Sent to <span className="font-medium text-foreground wrap-anywhere">{sentTo}</span>
          </p>
          <Answer invitation={invitation} signedIn={signedIn} signIn={signIn} error={actionData && !actionData.ok ? actionData.errors.form : undefined} />
        </CardContent>
      </Card>
    </Frame>
  );
}

function Answer({ invitation, signedIn, signIn, error }: { invitation: InviteView; signedIn: boolean; signIn: string; error?: string }) {
  const navigation = useNavigation();
  const answering = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const projectLink = (
    <Button asChild variant="outline">
      <Link to={route("projects.show", { project: invitation.project.slug })}>View {invitation.project.name}</Link>
    </Button>
  );

  switch (invitation.state) {
    case "accepted":
      return <Outcome icon={<CircleCheck />} title="This invitation is accepted" text="Its member is on the team." action={projectLink} tone="success" />;
    case "declined":
      return (
        <Outcome icon={<CircleX />} title="This invitation was declined" text="Ask the team for a new one if you change your mind." action={projectLink} />
      );
    case "revoked":
      return <Outcome icon={<CircleX />} title="This invitation was revoked" text="The team withdrew it. Ask them for a new one." action={projectLink} />;
    case "expired":
      return (
        <Outcome
          icon={<Clock />}
          title={`This invitation expired on ${formatDate(invitation.expiresAt)}`}
          text="Invitations are valid for 7 days. Ask the team to resend it."
          action={projectLink}
        />
      );
  }

  if (!signedIn) {
    return (
      <div className="grid gap-3 rounded-lg border bg-muted/40 p-4 text-center">
        <p className="text-sm">Sign in with the invited e-mail or wallet to answer.</p>
        <Button asChild variant="brand" className="justify-self-center">
          <Link to={signIn}>
            <LogIn aria-hidden /> Sign in to answer
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <Form method="post" className="grid gap-3">
      <input type="hidden" name="inviteId" value={invitation.id} />
      {error && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden /> {error}
        </p>
      )}
      <p className="text-center text-xs text-muted-foreground">Expires {formatDate(invitation.expiresAt)}</p>
      <div className="grid gap-2 sm:grid-cols-2">
        <Button type="submit" name="intent" value="accept" variant="brand" pending={answering === "accept"} disabled={Boolean(answering)}>
          Accept and join
        </Button>
        <Button type="submit" name="intent" value="decline" variant="outline" pending={answering === "decline"} disabled={Boolean(answering)}>
          Decline
        </Button>
      </div>
    </Form>
  );
}

function Outcome({ icon, title, text, action, tone }: { icon: ReactNode; title: string; text: string; action: ReactNode; tone?: "success" }) {
  return (
    <div className="grid justify-items-center gap-2 rounded-lg border bg-muted/40 p-4 text-center">
      <StateIcon icon={icon} tone={tone} />
      <p className="font-medium" role="status">
        {title}
      </p>
      <p className="text-sm text-muted-foreground">{text}</p>
      <div className="mt-1">{action}</div>
    </div>
  );
}

function StateIcon({ icon, tone }: { icon: ReactNode; tone?: "success" }) {
  return (
    <span className={tone === "success" ? "text-green-600 dark:text-green-400 [&_svg]:size-7" : "text-muted-foreground [&_svg]:size-7"} aria-hidden>
      {icon}
    </span>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return <div className="mx-auto grid w-full max-w-lg gap-4 py-4 sm:py-10">{children}</div>;
}
