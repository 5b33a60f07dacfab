import type { Db } from "~/lib/db.server";

/** Owned by the sign-in signals work: replace this stub. */

/** Keeps where a sign-up or sign-in came from as keyed hashes of the network prefix and user agent. */
export async function recordAccess(_: {
  db: Db;
  hashKey: Buffer;
  userId: string;
  kind: "sign_up" | "sign_in";
  address: string | null;
  userAgent: string | null;
  now?: Date;
}): Promise<void> {
  throw new Error("recordAccess is not built yet");
}

/** Deletes context older than 30 days; returns how many rows went. */
export async function purgeAccessContext(_: { db: Db; now?: Date }): Promise<number> {
  throw new Error("purgeAccessContext is not built yet");
}
