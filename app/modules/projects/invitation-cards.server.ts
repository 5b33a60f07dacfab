import type { Db } from "~/lib/db.server";
import { invitesFor } from "./invites.server";
import type { ProjectRole } from "./permissions.server";

export type InvitationCardData = {
  id: string;
  role: ProjectRole;
  expiresAt: Date;
  /** The e-mail or wallet address the invite was sent to. */
  sentTo: string;
  project: { slug: string; name: string; logoUrl: string | null };
};

/** A member's pending team invitations, shaped for the Invitations card. */
export async function invitationCards({ db, userId }: { db: Db; userId: string }): Promise<InvitationCardData[]> {
  const rows = await invitesFor({ db, userId });
  return rows.map(({ invite, project }) => ({
    id: invite.id,
    role: invite.role,
    expiresAt: invite.expiresAt,
    sentTo: invite.email ?? invite.walletAddress ?? "",
    project: { slug: project.slug, name: project.name, logoUrl: project.logoUrl },
  }));
}
