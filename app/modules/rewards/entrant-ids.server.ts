import { createHmac, randomBytes } from "node:crypto";

/**
 * A raffle entrant's id in the pool's public proof: the first 16 hex digits of
 * HMAC-SHA256(key, "raffle-entrant\n<poolId>\n<memberId>") (decision 046). The key never leaves
 * the server, so nobody can tell from two proofs that one member entered both, or which member an
 * id is; the member is shown theirs on the Verify page. It is fixed when the entrants are frozen
 * (stored beside each entrant), so a proof stays checkable whatever becomes of the key.
 */
export function entrantIdOf({ key, poolId, userId }: { key: string; poolId: string; userId: string }): string {
  return createHmac("sha256", key).update(`raffle-entrant\n${poolId}\n${userId}`).digest("hex").slice(0, 16);
}

/** The key of a process not given one (tests, the demo seed): its ids are as unlinkable, only not the same in another process. */
export const processEntrantKey = randomBytes(32).toString("hex");
