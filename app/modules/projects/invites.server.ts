import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { getAddress, isAddress } from "viem";
import { user } from "#db/schema/auth";
import { project, projectInvite, projectMember } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { emitEvents } from "~/modules/events/emit.server";
import type { ProjectRole } from "./permissions.server";

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type Invite = typeof projectInvite.$inferSelect;
export type InviteState = "pending" | "accepted" | "declined" | "revoked" | "expired";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function inviteState(invite: Pick<Invite, "acceptedAt" | "declinedAt" | "revokedAt" | "expiresAt">, now = new Date()): InviteState {
  if (invite.acceptedAt) return "accepted";
  if (invite.revokedAt) return "revoked";
  if (invite.declinedAt) return "declined";
  if (invite.expiresAt <= now) return "expired";
  return "pending";
}

/**
 * Invites someone to a project's team by e-mail or wallet address. Returns the link token (sent
 * by e-mail; only its hash is kept). A pending invite to the same person is replaced.
 */
export async function createInvite({
  db,
  projectId,
  invitedBy,
  role,
  email,
  walletAddress: walletInput,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  invitedBy: string;
  role: ProjectRole;
  email: string | null;
  walletAddress: string | null;
  now?: Date;
}) {
  const token = randomBytes(24).toString("base64url");
  const wallet = walletInput?.toLowerCase() ?? null;
  const invite = await db.transaction(async (tx) => {
    const same = email ? eq(projectInvite.email, email) : eq(projectInvite.walletAddress, wallet!);
    await tx
      .update(projectInvite)
      .set({ revokedAt: now })
      .where(and(eq(projectInvite.projectId, projectId), same, isNull(projectInvite.acceptedAt), isNull(projectInvite.revokedAt)));
    const [created] = await tx
      .insert(projectInvite)
      .values({
        id: randomUUID(),
        projectId,
        role,
        email,
        walletAddress: wallet,
        tokenHash: hashToken(token),
        invitedBy,
        expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
        createdAt: now,
      })
      .returning();
    await emitInvitationReceived(tx, created!);
    return created!;
  });
  return { invite, token };
}

/** An address as it may have been stored: lowercase, and checksummed when it is one. */
const spellingsOf = (address: string) => (isAddress(address, { strict: false }) ? [address.toLowerCase(), getAddress(address)] : [address]);

/**
 * `invitation.received` for each member the invite reaches now: the one whose e-mail it names, or
 * who linked the wallet it names (someone not signed up yet hears of it by the mail alone). Once
 * per invite and member.
 */
async function emitInvitationReceived(tx: Db, invite: Invite) {
  // E-mail addresses are kept lowercase; a wallet's as it was linked (checksummed or not): both read through their unique indexes.
  const addressedTo = invite.email
    ? tx.select({ userId: user.id }).from(user).where(eq(user.email, invite.email.toLowerCase()))
    : tx
        .selectDistinct({ userId: walletAddress.userId })
        .from(walletAddress)
        .where(inArray(walletAddress.address, spellingsOf(invite.walletAddress!)));
  const members = await addressedTo;
  if (members.length === 0) return;
  const [about] = await tx
    .select({ projectName: project.name, inviter: sql<string | null>`coalesce(nullif(${user.name}, ''), ${user.username})` })
    .from(project)
    .leftJoin(user, eq(user.id, invite.invitedBy ?? ""))
    .where(eq(project.id, invite.projectId));
  await emitEvents(
    tx,
    members
      .filter((m) => m.userId !== invite.invitedBy)
      .map((m) => ({
        type: "invitation.received" as const,
        key: `invitation.received:${invite.id}:${m.userId}`,
        projectId: invite.projectId,
        data: {
          inviteId: invite.id,
          userId: m.userId,
          projectName: (about?.projectName ?? "").slice(0, 300),
          role: invite.role,
          invitedBy: (about?.inviter ?? "A team member").slice(0, 200),
        },
      })),
  );
}

/** A fresh link and seven more days for a pending or expired invite. */
export async function resendInvite({ db, projectId, inviteId, now = new Date() }: { db: Db; projectId: string; inviteId: string; now?: Date }) {
  const token = randomBytes(24).toString("base64url");
  const [invite] = await db
    .update(projectInvite)
    .set({ tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + INVITE_TTL_MS) })
    .where(
      and(
        eq(projectInvite.id, inviteId),
        eq(projectInvite.projectId, projectId),
        isNull(projectInvite.acceptedAt),
        isNull(projectInvite.revokedAt),
        isNull(projectInvite.declinedAt),
      ),
    )
    .returning();
  return invite ? { invite, token } : null;
}

export async function revokeInvite({ db, projectId, inviteId, now = new Date() }: { db: Db; projectId: string; inviteId: string; now?: Date }) {
  const [revoked] = await db
    .update(projectInvite)
    .set({ revokedAt: now })
    .where(and(eq(projectInvite.id, inviteId), eq(projectInvite.projectId, projectId), isNull(projectInvite.acceptedAt)))
    .returning({ id: projectInvite.id });
  return Boolean(revoked);
}

/** One of the project's invitations, or null. */
export async function inviteOf({ db, projectId, inviteId }: { db: Db; projectId: string; inviteId: string }) {
  const [row] = await db
    .select()
    .from(projectInvite)
    .where(and(eq(projectInvite.id, inviteId), eq(projectInvite.projectId, projectId)));
  return row ?? null;
}

export async function listProjectInvites({ db, projectId }: { db: Db; projectId: string }) {
  return db.select().from(projectInvite).where(eq(projectInvite.projectId, projectId)).orderBy(desc(projectInvite.createdAt));
}

export async function inviteByToken({ db, token }: { db: Db; token: string }) {
  const [row] = await db
    .select({ invite: projectInvite, project })
    .from(projectInvite)
    .innerJoin(project, eq(project.id, projectInvite.projectId))
    .where(eq(projectInvite.tokenHash, hashToken(token)));
  return row ?? null;
}

/** The identities a member can accept invites for: their e-mail and their linked wallets. */
async function identitiesOf(db: Db, userId: string) {
  const [member] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  const wallets = await db.selectDistinct({ address: walletAddress.address }).from(walletAddress).where(eq(walletAddress.userId, userId));
  return { email: member?.email.toLowerCase() ?? null, wallets: wallets.map((w) => w.address.toLowerCase()) };
}

/** Pending invites addressed to this member (by e-mail or by a linked wallet). */
export async function invitesFor({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  return invitesForStatement(db).execute({ userId, now: now.toISOString() });
}

/**
 * One statement, prepared once per connection: the member's identities (as identitiesOf reads them)
 * are subqueries.
 */
const invitesForStatement = preparedPerDb((db) => {
  const userId = sql.placeholder("userId");
  const addressedTo = or(
    eq(
      projectInvite.email,
      db
        .select({ email: sql<string>`lower(${user.email})` })
        .from(user)
        .where(eq(user.id, userId)),
    ),
    inArray(
      projectInvite.walletAddress,
      db
        .select({ address: sql<string>`lower(${walletAddress.address})` })
        .from(walletAddress)
        .where(eq(walletAddress.userId, userId)),
    ),
  );
  return db
    .select({ invite: projectInvite, project })
    .from(projectInvite)
    .innerJoin(project, eq(project.id, projectInvite.projectId))
    .where(
      and(
        addressedTo,
        isNull(projectInvite.acceptedAt),
        isNull(projectInvite.revokedAt),
        isNull(projectInvite.declinedAt),
        sql`${projectInvite.expiresAt} > ${sql.placeholder("now")}::timestamptz`,
      ),
    )
    .orderBy(desc(projectInvite.createdAt))
    .prepare("questline_invites_for");
});

/** Refusals are the whole form's (`invalid` on "form"): the invitation screens answer them with 400. */
export type AnswerResult = Ok<{ projectSlug: string }> | FieldFailure;

/** Accepts or declines an invite addressed to this member. Accepting joins the team with its role. */
export async function answerInvite({
  db,
  inviteId,
  userId,
  accept,
  now = new Date(),
}: {
  db: Db;
  inviteId: string;
  userId: string;
  accept: boolean;
  now?: Date;
}): Promise<AnswerResult> {
  const { email, wallets } = await identitiesOf(db, userId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ invite: projectInvite, slug: project.slug })
      .from(projectInvite)
      .innerJoin(project, eq(project.id, projectInvite.projectId))
      .where(eq(projectInvite.id, inviteId))
      .for("update");
    if (!row) return invalid("form", "This invitation does not exist.");
    const { invite } = row;
    const mine = (invite.email !== null && invite.email === email) || (invite.walletAddress !== null && wallets.includes(invite.walletAddress.toLowerCase()));
    if (!mine) return invalid("form", "This invitation is for someone else. Sign in with the invited e-mail or wallet.");
    const state = inviteState(invite, now);
    if (state !== "pending") return invalid("form", `This invitation is ${state}.`);
    if (!accept) {
      await tx.update(projectInvite).set({ declinedAt: now }).where(eq(projectInvite.id, inviteId));
      return ok({ projectSlug: row.slug });
    }
    await tx.update(projectInvite).set({ acceptedAt: now, acceptedBy: userId }).where(eq(projectInvite.id, inviteId));
    const [existing] = await tx
      .select({ role: projectMember.role })
      .from(projectMember)
      .where(and(eq(projectMember.projectId, invite.projectId), eq(projectMember.userId, userId)));
    // An invite never lowers a member's role.
    const rank = { owner: 3, admin: 2, reviewer: 1 } as const;
    if (!existing) await tx.insert(projectMember).values({ projectId: invite.projectId, userId, role: invite.role });
    else if (rank[invite.role] > rank[existing.role]) {
      await tx
        .update(projectMember)
        .set({ role: invite.role })
        .where(and(eq(projectMember.projectId, invite.projectId), eq(projectMember.userId, userId)));
    }
    return ok({ projectSlug: row.slug });
  });
}
