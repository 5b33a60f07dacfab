import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import { getAddress } from "viem";
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { checkSiweFields, checkSiweSignature, type SiweCheckOptions } from "./siwe.server";
import { hasWalletOnChain, linkWallet, unlinkWallet } from "./wallets.server";

const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "Expected a 0x address")
  .transform((a) => getAddress(a));

/**
 * Wallet endpoints beside better-auth's SIWE sign-in, for a member who is already signed in:
 * link a wallet (a signed EIP-4361 message with a fresh nonce), unlink one, and ask whether the
 * member has signed for an address on a chain (the wallet modal's per-chain sessions).
 */
export function walletPlugin({ db, siwe }: { db: Db; siwe: () => SiweCheckOptions }) {
  return {
    id: "questline-wallets",
    endpoints: {
      linkWallet: createAuthEndpoint(
        "/wallet/link",
        {
          method: "POST",
          use: [sessionMiddleware],
          body: z.object({ message: z.string().min(1).max(4000), signature: z.string().min(1).max(20_000) }).strict(),
        },
        async (ctx) => {
          const options = siwe();
          const { address, chainId, nonce } = checkSiweFields(ctx.body.message, options);
          const consumed = await ctx.context.internalAdapter.consumeVerificationValue(`siwe:${nonce}`);
          if (!consumed) throw new APIError("UNAUTHORIZED", { message: "Unauthorized: Invalid or expired nonce", code: "SIWE_BAD_NONCE" });
          await checkSiweSignature({ message: ctx.body.message, signature: ctx.body.signature, address, chainId }, options);
          const linked = await linkWallet({ db, userId: ctx.context.session.user.id, address, chainId });
          if (!linked.ok) throw new APIError("CONFLICT", { message: linked.message, code: "WALLET_OWNED" });
          return ctx.json({ address, chainId, newWallet: linked.newWallet });
        },
      ),
      unlinkWallet: createAuthEndpoint(
        "/wallet/unlink",
        { method: "POST", use: [sessionMiddleware], body: z.object({ address: addressSchema }).strict() },
        async (ctx) => {
          const result = await unlinkWallet({ db, userId: ctx.context.session.user.id, address: ctx.body.address });
          if (result.ok) return ctx.json({ ok: true });
          if (result.code === "not_found") throw new APIError("NOT_FOUND", { message: result.message });
          // The last way to sign in (`conflict`) keeps its 400 answer and code: the profile screen passes both on.
          throw new APIError("BAD_REQUEST", { message: result.message, code: "LAST_SIGN_IN_METHOD" });
        },
      ),
      walletSession: createAuthEndpoint(
        "/wallet/session",
        {
          method: "GET",
          use: [sessionMiddleware],
          query: z.object({ address: addressSchema, chainId: z.coerce.number().int().positive() }),
        },
        async (ctx) => {
          const signed = await hasWalletOnChain({
            db,
            userId: ctx.context.session.user.id,
            address: ctx.query.address,
            chainId: ctx.query.chainId,
          });
          return ctx.json({ signed });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
