import { eq } from "drizzle-orm";
import { platformSetting } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";

/**
 * The operators' pause on withdrawals: while it is on, the Balance screen says so and the
 * withdrawal job sends nothing (requests still hold their amounts and wait).
 */

const PAUSED_KEY = "withdrawals_paused";

/** Whether operators have paused withdrawals. */
export async function withdrawalsPaused({ db }: { db: Db }): Promise<boolean> {
  const [row] = await db.select({ value: platformSetting.value }).from(platformSetting).where(eq(platformSetting.key, PAUSED_KEY));
  return row?.value === true;
}

/** Pauses or resumes withdrawals (`by`: the operator's user id, kept with the setting). */
export async function setWithdrawalsPaused({ db, paused, by }: { db: Db; paused: boolean; by: string }): Promise<void> {
  await db
    .insert(platformSetting)
    .values({ key: PAUSED_KEY, value: paused, updatedBy: by })
    .onConflictDoUpdate({ target: platformSetting.key, set: { value: paused, updatedBy: by, updatedAt: new Date() } });
}
