import { eq } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { walletAddress } from "#db/schema/wallets";
import { data, type RouterContextProvider } from "react-router";
import type { Db } from "~/lib/db.server";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";

/**
 * Platform operators are listed in configuration (`OPERATORS`: lowercase e-mails and 0x
 * addresses). A member is an operator when their e-mail or one of their linked wallets is listed.
 */
export async function isOperator({ db, operators, userId }: { db: Db; operators: readonly string[]; userId: string | null | undefined }) {
  if (!userId || operators.length === 0) return false;
  const listed = new Set(operators.map((entry) => entry.toLowerCase()));
  const [member] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  if (member?.email && listed.has(member.email.toLowerCase())) return true;
  const wallets = await db.selectDistinct({ address: walletAddress.address }).from(walletAddress).where(eq(walletAddress.userId, userId));
  return wallets.some((w) => listed.has(w.address.toLowerCase()));
}

/** Throws a 403 response unless the member is an operator. */
export async function requireOperator(options: { db: Db; operators: readonly string[]; userId: string | null | undefined }) {
  if (!(await isOperator(options))) throw data("Only platform operators may do that.", { status: 403 });
}

/** An operator screen's guard: the signed-in member (else to sign-in), who must be an operator (else 403). */
export async function requireOperatorUser(context: Readonly<RouterContextProvider>, request: Request) {
  const { database, env } = context.get(servicesContext);
  const { user: member } = await requireUser(context, request);
  await requireOperator({ db: database.db, operators: env.operators, userId: member.id });
  return { db: database.db, userId: member.id, email: member.email };
}
