import { randomUUID } from "node:crypto";
import { and, asc, eq, like, ne } from "drizzle-orm";
import { account, user } from "#db/schema/auth";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";

/** Members created by a wallet get a placeholder address in this domain until they add a real one. */
export const WALLET_EMAIL_DOMAIN = "wallet.questline.invalid";

export const hasRealEmail = (email: string) => !email.endsWith(`@${WALLET_EMAIL_DOMAIN}`);

export type LinkedWallet = { address: string; chainIds: number[]; isPrimary: boolean; linkedAt: Date };

/** The member's wallets, one entry per address with the chains it signed on, primary first. */
export async function listWallets({ db, userId }: { db: Db; userId: string }): Promise<LinkedWallet[]> {
  const rows = await db.select().from(walletAddress).where(eq(walletAddress.userId, userId)).orderBy(asc(walletAddress.createdAt));
  const byAddress = new Map<string, LinkedWallet>();
  for (const row of rows) {
    const entry = byAddress.get(row.address) ?? { address: row.address, chainIds: [], isPrimary: false, linkedAt: row.createdAt };
    entry.chainIds.push(row.chainId);
    entry.isPrimary ||= row.isPrimary;
    byAddress.set(row.address, entry);
  }
  return [...byAddress.values()].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
}

/** Whether this member has signed with `address` on `chainId` (a wallet session for that chain). */
export async function hasWalletOnChain({ db, userId, address, chainId }: { db: Db; userId: string; address: string; chainId: number }) {
  const [row] = await db
    .select({ id: walletAddress.id })
    .from(walletAddress)
    .where(and(eq(walletAddress.userId, userId), eq(walletAddress.address, address), eq(walletAddress.chainId, chainId)));
  return Boolean(row);
}

/**
 * `newWallet`: the address was not the member's before (else it was, on another network, or already
 * on this one). Refused as `conflict` when another member has the address.
 */
export type LinkResult = Ok<{ newWallet: boolean }> | CodedFailure;

/** Links a verified wallet to a signed-in member on one chain. Its first wallet becomes primary. */
export async function linkWallet({ db, userId, address, chainId }: { db: Db; userId: string; address: string; chainId: number }): Promise<LinkResult> {
  return db.transaction(async (tx) => {
    const owners = await tx.select({ userId: walletAddress.userId }).from(walletAddress).where(eq(walletAddress.address, address));
    if (owners.some((o) => o.userId !== userId)) return failure("conflict", "This wallet is linked to another account");
    if (await hasWalletOnChain({ db: tx, userId, address, chainId })) return ok({ newWallet: false });
    const [primary] = await tx
      .select({ id: walletAddress.id })
      .from(walletAddress)
      .where(and(eq(walletAddress.userId, userId), eq(walletAddress.isPrimary, true)));
    await tx.insert(walletAddress).values({ id: randomUUID(), userId, address, chainId, isPrimary: !primary && owners.length === 0 });
    await tx.insert(account).values({ id: randomUUID(), userId, providerId: "siwe", accountId: `${address}:${chainId}` });
    return ok({ newWallet: owners.length === 0 });
  });
}

/** Refused as `not_found` (not this member's wallet) or `conflict` (their last way to sign in). */
export type UnlinkResult = Ok | CodedFailure;

/**
 * Unlinks a wallet (on every chain) from a member, unless it is their last way to sign in. When the
 * primary wallet goes, the oldest remaining one becomes primary.
 */
export async function unlinkWallet({ db, userId, address }: { db: Db; userId: string; address: string }): Promise<UnlinkResult> {
  return db.transaction(async (tx) => {
    const wallets = await tx.select().from(walletAddress).where(eq(walletAddress.userId, userId)).orderBy(asc(walletAddress.createdAt));
    if (!wallets.some((w) => w.address === address)) return failure("not_found", "That wallet is not linked to you");
    const [member] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    const otherWallets = new Set(wallets.filter((w) => w.address !== address).map((w) => w.address));
    if (otherWallets.size === 0 && !(member && hasRealEmail(member.email))) {
      return failure("conflict", "This wallet is your only way to sign in. Add an e-mail or another wallet first.");
    }

    const wasPrimary = wallets.some((w) => w.address === address && w.isPrimary);
    await tx.delete(walletAddress).where(and(eq(walletAddress.userId, userId), eq(walletAddress.address, address)));
    await tx.delete(account).where(and(eq(account.userId, userId), eq(account.providerId, "siwe"), like(account.accountId, `${address}:%`)));
    const next = wallets.find((w) => w.address !== address);
    if (wasPrimary && next) {
      await tx
        .update(walletAddress)
        .set({ isPrimary: true })
        .where(and(eq(walletAddress.userId, userId), eq(walletAddress.address, next.address), ne(walletAddress.isPrimary, true)));
    }
    return ok();
  });
}
