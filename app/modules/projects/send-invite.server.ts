import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/mail/mailer.server";
import { createInvite, inviteOf, resendInvite, type Invite } from "./invites.server";
import { inviteMail, inviteUrl } from "./invite-mail.server";
import type { ProjectRole } from "./permissions.server";
import { claimInvitation, claimResend, startResendCooldown, type SendLimits } from "./send-limits.server";

type Outbox = { db: Db; mailer: Mailer; logger: Logger; appName: string; appUrl: string; limits: SendLimits; now?: Date };
type Sender = { project: { id: string; name: string }; inviterName: string | null };

/** What became of an invite: its link, and whether it was e-mailed (`null` for wallet invites). */
export type SentInvite = { invite: Invite; url: string; mailed: boolean | null };
/** An invitation refused by the sending limits (see send-limits.server.ts), with why. */
export type Refused = { refused: string };

async function mail(outbox: Outbox, sender: Sender, invite: Invite, url: string): Promise<boolean | null> {
  if (!invite.email) return null;
  try {
    await outbox.mailer.send(
      inviteMail({
        appName: outbox.appName,
        to: invite.email,
        projectName: sender.project.name,
        role: invite.role,
        inviterName: sender.inviterName,
        url,
        expiresAt: invite.expiresAt,
      }),
    );
    return true;
  } catch (err) {
    outbox.logger.error({ err, inviteId: invite.id }, "the invite e-mail could not be sent");
    return false;
  }
}

/**
 * Invites someone to the team; an e-mail invite is mailed its link at once. Counts against the
 * project's and the inviter's hourly limits, and starts the invite's resend cooldown.
 */
export async function sendInvite(
  outbox: Outbox,
  sender: Sender & { invitedBy: string; role: ProjectRole; email: string | null; walletAddress: string | null },
): Promise<SentInvite | Refused> {
  const now = outbox.now?.getTime();
  const claim = await claimInvitation({ db: outbox.db, limits: outbox.limits, projectId: sender.project.id, inviterId: sender.invitedBy, now });
  if (!claim.ok) return { refused: claim.message };
  const { invite, token } = await createInvite({
    db: outbox.db,
    projectId: sender.project.id,
    invitedBy: sender.invitedBy,
    role: sender.role,
    email: sender.email,
    walletAddress: sender.walletAddress,
    now: outbox.now,
  });
  await startResendCooldown({ db: outbox.db, limits: outbox.limits, inviteId: invite.id, now });
  const url = inviteUrl(outbox.appUrl, token);
  return { invite, url, mailed: await mail(outbox, sender, invite, url) };
}

/**
 * A new link and seven more days; an e-mail invite is mailed again, at most once per cooldown and
 * within the hourly limits. Null when it cannot be resent (answered, revoked, not this project's).
 */
export async function resendAndMail(outbox: Outbox, sender: Sender & { inviteId: string; resentBy: string }): Promise<SentInvite | Refused | null> {
  if (!(await inviteOf({ db: outbox.db, projectId: sender.project.id, inviteId: sender.inviteId }))) return null;
  const claim = await claimResend({
    db: outbox.db,
    limits: outbox.limits,
    projectId: sender.project.id,
    inviterId: sender.resentBy,
    inviteId: sender.inviteId,
    now: outbox.now?.getTime(),
  });
  if (!claim.ok) return { refused: claim.message };
  const resent = await resendInvite({ db: outbox.db, projectId: sender.project.id, inviteId: sender.inviteId, now: outbox.now });
  if (!resent) return null;
  const url = inviteUrl(outbox.appUrl, resent.token);
  return { invite: resent.invite, url, mailed: await mail(outbox, sender, resent.invite, url) };
}
