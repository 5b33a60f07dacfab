import { Mail, RotateCw, Wallet, X } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { waitWords } from "~/lib/wait-words";
import { shortAddress } from "~/wallet/chains";
import { ConfirmDialog } from "./confirm-dialog";
import { CopyLink } from "./copy-link";
import { formatDate, ROLE_LABELS, type TeamRole } from "./roles";
import type { TeamActionData } from "./team-actions";

type InviteState = "pending" | "accepted" | "declined" | "revoked" | "expired";
export type InviteRow = {
  id: string;
  email: string | null;
  walletAddress: string | null;
  role: TeamRole;
  state: InviteState;
  expiresAt: Date | string;
  createdAt: Date | string;
  /** Seconds until it may be resent (0: now). */
  resendInSeconds: number;
};

const STATE_BADGE: Record<InviteState, { label: string; variant: "warning" | "success" | "secondary" | "destructive" | "outline" }> = {
  pending: { label: "Pending", variant: "warning" },
  accepted: { label: "Accepted", variant: "success" },
  declined: { label: "Declined", variant: "secondary" },
  revoked: { label: "Revoked", variant: "outline" },
  expired: { label: "Expired", variant: "destructive" },
};

/** The project's invitations, open ones first, with Resend and Revoke while they can still be answered. */
export function InviteList({ invites }: { invites: InviteRow[] }) {
  const open = invites.filter((i) => i.state === "pending" || i.state === "expired");
  const closed = invites.filter((i) => i.state !== "pending" && i.state !== "expired");
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invitations</CardTitle>
        <CardDescription>Resending makes a new link, valid for 7 more days; the old link stops working.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {invites.length === 0 ? (
          <EmptyState icon={Mail} title="No invitations yet">
            Invite your team above.
          </EmptyState>
        ) : (
          <ul className="divide-y rounded-lg border">
            {[...open, ...closed.slice(0, 20)].map((invite) => (
              <InviteItem key={invite.id} invite={invite} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function InviteItem({ invite }: { invite: InviteRow }) {
  const fetcher = useFetcher<TeamActionData>();
  const busy = fetcher.state !== "idle" ? String(fetcher.formData?.get("intent")) : null;
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const target = invite.email ?? shortAddress(invite.walletAddress) ?? "";
  const answerable = invite.state === "pending" || invite.state === "expired";

  useEffect(() => {
    if (!result) return;
    if (!result.ok) toast.error(result.errors?.form ?? "That did not work.");
    else if (result.intent === "revoke") toast.success(`Invitation for ${target} revoked`);
    else if (result.mailed) toast.success(`New invitation e-mailed to ${target}`);
    else if (result.mailed === false) toast.error("A new link is made but the e-mail could not be sent: share the link.");
    else toast.success("New invitation link made");
  }, [result, target]);

  const submit = (intent: string) => fetcher.submit({ intent, id: invite.id }, { method: "post" });
  return (
    <li className="grid gap-3 p-3">
      <div className="grid gap-3 sm:flex sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-4" aria-hidden>
            {invite.email ? <Mail /> : <Wallet />}
          </span>
          <div className="min-w-0">
            <p className="truncate font-medium" title={invite.email ?? invite.walletAddress ?? undefined}>
              {target}
            </p>
            <p className="text-xs text-muted-foreground">
              {ROLE_LABELS[invite.role]} · sent {formatDate(invite.createdAt)}
              {answerable && ` · ${invite.state === "expired" ? "expired" : "expires"} ${formatDate(invite.expiresAt)}`}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={STATE_BADGE[invite.state].variant}>{STATE_BADGE[invite.state].label}</Badge>
          {answerable && (
            <>
              <Button
                variant="outline"
                size="sm"
                onClick={() => void submit("resend")}
                pending={busy === "resend"}
                disabled={busy !== null || invite.resendInSeconds > 0}
                aria-describedby={invite.resendInSeconds > 0 ? `resend-wait-${invite.id}` : undefined}
              >
                <RotateCw aria-hidden /> Resend
              </Button>
              <ConfirmDialog
                trigger={
                  <Button variant="ghost" size="sm" pending={busy === "revoke"} disabled={busy !== null}>
                    <X aria-hidden /> Revoke
                  </Button>
                }
                title="Revoke this invitation?"
                description={`The link sent to ${target} stops working.`}
                confirm={(close) => (
                  <Button
                    variant="destructive"
                    onClick={() => {
                      void submit("revoke");
                      close();
                    }}
                  >
                    Revoke
                  </Button>
                )}
              />
            </>
          )}
        </div>
      </div>
      {answerable && invite.resendInSeconds > 0 && (
        <p id={`resend-wait-${invite.id}`} className="text-xs text-muted-foreground sm:text-right">
          Sent just now: it can be resent in {waitWords(invite.resendInSeconds)}.
        </p>
      )}
      {result?.ok && result.intent === "resend" && result.url && <CopyLink label={`Invitation link for ${target}`} url={result.url} />}
    </li>
  );
}
