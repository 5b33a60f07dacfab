import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { depositReference } from "#db/schema/ledger";
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

/** The member whose deposit reference `ref` is, or null when it is nobody's. */
export async function userOfRef({ db, ref }: { db: Db; ref: Hex }): Promise<string | null> {
  const [row] = await db.select({ userId: depositReference.userId }).from(depositReference).where(eq(depositReference.ref, ref.toLowerCase()));
  return row?.userId ?? null;
}
