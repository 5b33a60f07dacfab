import { MailOpen } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import { shortAddress } from "~/wallet/chains";
import { ProjectLogo } from "./project-logo";
import { formatDate, ROLE_LABELS, type TeamRole } from "./roles";

export type InvitationCardItem = {
  id: string;
  role: TeamRole;
  expiresAt: Date | string;
  sentTo: string;
  project: { slug: string; name: string; logoUrl: string | null };
};

/** What /invites/:token answers to a card's form (an accepted invite redirects to its project instead). */
export type AnswerActionData = { ok: true } | { ok: false; errors: Record<string, string> };

/**
 * The signed-in member's pending team invitations (by e-mail or by a linked wallet), each with
 * Accept and Decline. Renders nothing when there are none. Load the list with
 * `invitationCards({ db, userId })` (app/modules/projects/invitation-cards.server.ts).
 * Wallet invites have no mailed link, so the answer is posted by invite id to /invites/:id.
 */
export function InvitationsCard({ invitations }: { invitations: InvitationCardItem[] }) {
  if (invitations.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailOpen className="size-5 text-muted-foreground" aria-hidden /> Invitations
        </CardTitle>
        <CardDescription>
          {invitations.length === 1 ? "A team invited you to join it." : `${invitations.length} teams invited you to join them.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {invitations.map((invitation) => (
            <Invitation key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function Invitation({ invitation }: { invitation: InvitationCardItem }) {
  const fetcher = useFetcher<AnswerActionData>();
  const answering = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  // A refusal keeps the card; a decline removes it, and the page says so (see the action).
  const refused = fetcher.data && !fetcher.data.ok ? (fetcher.data.errors.form ?? "That did not work.") : null;
  useEffect(() => {
    if (refused) toast.error(refused);
  }, [refused, fetcher.data]);

  const sentTo = invitation.sentTo.startsWith("0x") ? shortAddress(invitation.sentTo) : invitation.sentTo;
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <ProjectLogo name={invitation.project.name} logoUrl={invitation.project.logoUrl} className="size-10" />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="truncate">{invitation.project.name}</span>
            <Badge variant="brand">{ROLE_LABELS[invitation.role]}</Badge>
          </p>
          <p className="truncate text-xs text-muted-foreground">
            Sent to {sentTo} · expires {formatDate(invitation.expiresAt)}
          </p>
        </div>
      </div>
      <fetcher.Form method="post" action={route("invites.accept", { token: invitation.id })} className="flex gap-2">
        <input type="hidden" name="inviteId" value={invitation.id} />
        <Button type="submit" name="intent" value="accept" size="sm" variant="brand" pending={answering === "accept"} disabled={Boolean(answering)}>
          Accept
        </Button>
        <Button type="submit" name="intent" value="decline" size="sm" variant="outline" pending={answering === "decline"} disabled={Boolean(answering)}>
          Decline
        </Button>
      </fetcher.Form>
    </li>
  );
}
