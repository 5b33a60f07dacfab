import { asc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { user } from "#db/schema/auth";
import { deposit } from "#db/schema/ledger";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { failure, invalid, ok, type CodedFailure, type FieldFailure, type Ok } from "~/lib/result";
import { WALLET_EMAIL_DOMAIN } from "~/modules/wallets/wallets.server";
import { shortAddress } from "~/wallet/chains";
import { assignDeposit } from "./deposit-postings.server";

export type UnmatchedDeposit = {
  id: string;
  chainId: number;
  txHash: string;
  fromAddress: string;
  ref: string;
  amount: bigint;
  createdAt: Date;
  /** The member one of whose linked wallets sent it, when there is one: the likely owner. */
  sender: { label: string } | null;
};

/** How an operator recognises a member: @username, else their e-mail (a wallet-only member's short address). */
function memberLabel({ email, username, address }: { email: string; username: string | null; address: string }) {
  if (username) return `@${username}`;
  return email.endsWith(`@${WALLET_EMAIL_DOMAIN}`) ? (shortAddress(address) ?? address) : email;
}

/** Deposits whose reference matched no member, oldest first, each with the member whose wallet sent it (if any). */
export async function unmatchedDeposits({ db, limit = 100 }: { db: Db; limit?: number }): Promise<UnmatchedDeposit[]> {
  const rows = await db
    .select({
      id: deposit.id,
      chainId: deposit.chainId,
      txHash: deposit.txHash,
      fromAddress: deposit.fromAddress,
      ref: deposit.ref,
      amount: deposit.amount,
      createdAt: deposit.createdAt,
    })
    .from(deposit)
    .where(eq(deposit.status, "unmatched"))
    .orderBy(asc(deposit.createdAt), asc(deposit.id))
    .limit(limit);
  const senders = rows.length
    ? await db
        .selectDistinct({ address: sql<string>`lower(${walletAddress.address})`, email: user.email, username: user.username })
        .from(walletAddress)
        .innerJoin(user, eq(user.id, walletAddress.userId))
        .where(inArray(sql`lower(${walletAddress.address})`, [...new Set(rows.map((row) => row.fromAddress.toLowerCase()))]))
    : [];
  const byAddress = new Map(senders.map((member) => [member.address, { label: memberLabel(member) }]));
  return rows.map((row) => ({ ...row, sender: byAddress.get(row.fromAddress.toLowerCase()) ?? null }));
}

export const assignDepositSchema = z.object({
  deposit: z.string().trim().min(1, "Choose a deposit"),
  member: z.string().trim().min(1, "Enter the member's e-mail, username or wallet address").max(320, "Enter the member's e-mail, username or wallet address"),
});

/** Refused: no such member (`invalid` on `member`), or the deposit is not unmatched any more or not there (`conflict`, the form's). */
export type AssignResult = Ok<{ member: string }> | FieldFailure | CodedFailure;

/** The member an operator names by e-mail, username (with or without @) or linked wallet address. */
async function findMember(db: Db, named: string): Promise<{ id: string; email: string; username: string | null; address: string } | undefined> {
  const name = named.trim().toLowerCase().replace(/^@/, "");
  const [found] = await db
    .selectDistinct({ id: user.id, email: user.email, username: user.username, address: sql<string>`coalesce(lower(${walletAddress.address}), '')` })
    .from(user)
    .leftJoin(walletAddress, eq(walletAddress.userId, user.id))
    .where(or(eq(sql`lower(${user.email})`, name), eq(sql`lower(${user.username})`, name), eq(sql`lower(${walletAddress.address})`, name)))
    .limit(1);
  return found;
}

/**
 * Gives an unmatched deposit to the member named by e-mail, username or wallet (an operator's decision,
 * recorded in the ledger entry's memo). It is then credited as any deposit, once its block is
 * confirmed. A deposit already assigned or credited is refused, and nothing changes.
 */
export async function assignUnmatchedDeposit({
  db,
  depositId,
  member,
  operatorEmail,
}: {
  db: Db;
  depositId: string;
  member: string;
  operatorEmail: string;
}): Promise<AssignResult> {
  const found = await findMember(db, member);
  if (!found) return invalid("member", "No member has that e-mail, username or wallet.");
  const label = memberLabel(found);
  const assigned = await db.transaction((tx) =>
    assignDeposit(tx, { depositId, userId: found.id, memo: `Assigned to ${label} (${found.id}) by operator ${operatorEmail}` }),
  );
  if (!assigned) {
    const [row] = await db.select({ status: deposit.status }).from(deposit).where(eq(deposit.id, depositId));
    // Both answered 409, as the operator's page always did: the list they acted on is out of date.
    return failure("conflict", row ? "That deposit is no longer unmatched: someone assigned it already." : "There is no such deposit.");
  }
  return ok({ member: label });
}
