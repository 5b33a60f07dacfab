import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { depositReference, projectDepositReference } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";

/**
 * A member's deposit reference: the bytes32 they pass to `DepositVault.deposit`, which ties an
 * on-chain deposit to their account. Random, created on first use and never changed.
 */
export async function depositRefOf({ db, userId }: { db: Db; userId: string }): Promise<Hex> {
  const existing = await refOf(db, userId);
  if (existing) return existing;
  // Two first requests at once both insert; one wins and both read the winner's reference.
  await db
    .insert(depositReference)
    .values({ userId, ref: `0x${randomBytes(32).toString("hex")}` })
    .onConflictDoNothing();
  const created = await refOf(db, userId);
  if (!created) throw new Error(`No deposit reference could be created for member ${userId}`);
  return created;
}

async function refOf(db: Db, userId: string): Promise<Hex | undefined> {
  const [row] = await db.select({ ref: depositReference.ref }).from(depositReference).where(eq(depositReference.userId, userId));
  return row?.ref as Hex | undefined;
}

/** A project's deposit reference: a deposit carrying it funds the project's treasury. Created on first use, never changed. */
export async function projectDepositRefOf({ db, projectId }: { db: Db; projectId: string }): Promise<Hex> {
  const read = async () =>
    (await db.select({ ref: projectDepositReference.ref }).from(projectDepositReference).where(eq(projectDepositReference.projectId, projectId)))[0]?.ref as
      Hex | undefined;
  const existing = await read();
  if (existing) return existing;
  await db
    .insert(projectDepositReference)
    .values({ projectId, ref: `0x${randomBytes(32).toString("hex")}` })
    .onConflictDoNothing();
  const created = await read();
  if (!created) throw new Error(`No deposit reference could be created for project ${projectId}`);
  return created;
}

/** Whose deposit reference `ref` is: a member's or a project's; null when it is nobody's. */
export async function ownerOfRef({ db, ref }: { db: Db; ref: Hex }): Promise<{ userId: string | null; projectId: string | null } | null> {
  const [member] = await db.select({ userId: depositReference.userId }).from(depositReference).where(eq(depositReference.ref, ref.toLowerCase()));
  if (member) return { userId: member.userId, projectId: null };
  const [project] = await db
    .select({ projectId: projectDepositReference.projectId })
    .from(projectDepositReference)
    .where(eq(projectDepositReference.ref, ref.toLowerCase()));
  return project ? { userId: null, projectId: project.projectId } : null;
}
