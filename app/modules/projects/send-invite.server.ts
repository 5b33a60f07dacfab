import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/mail/mailer.server";
import { createInvite, resendInvite, type Invite } from "./invites.server";
import { inviteMail, inviteUrl } from "./invite-mail.server";
import type { ProjectRole } from "./permissions.server";

type Outbox = { db: Db; mailer: Mailer; logger: Logger; appName: string; appUrl: string };
type Sender = { project: { id: string; name: string }; inviterName: string | null };

/** What became of an invite: its link, and whether it was e-mailed (`null` for wallet invites). */
export type SentInvite = { invite: Invite; url: string; mailed: boolean | null };

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

/** Invites someone to the team; an e-mail invite is mailed its link at once. */
export async function sendInvite(
  outbox: Outbox,
  sender: Sender & { invitedBy: string; role: ProjectRole; email: string | null; walletAddress: string | null },
): Promise<SentInvite> {
  const { invite, token } = await createInvite({
    db: outbox.db,
    projectId: sender.project.id,
    invitedBy: sender.invitedBy,
    role: sender.role,
    email: sender.email,
    walletAddress: sender.walletAddress,
  });
  const url = inviteUrl(outbox.appUrl, token);
  return { invite, url, mailed: await mail(outbox, sender, invite, url) };
}

/** A new link and seven more days; an e-mail invite is mailed again. Null when it cannot be resent. */
export async function resendAndMail(outbox: Outbox, sender: Sender & { inviteId: string }): Promise<SentInvite | null> {
  const resent = await resendInvite({ db: outbox.db, projectId: sender.project.id, inviteId: sender.inviteId });
  if (!resent) return null;
  const url = inviteUrl(outbox.appUrl, resent.token);
  return { invite: resent.invite, url, mailed: await mail(outbox, sender, resent.invite, url) };
}
