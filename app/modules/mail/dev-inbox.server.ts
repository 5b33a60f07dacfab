import { desc } from "drizzle-orm";
import { devMail } from "#db/schema/mail";
import type { Db } from "~/lib/db.server";

export async function listDevMail({ db, limit = 50 }: { db: Db; limit?: number }) {
  return db.select().from(devMail).orderBy(desc(devMail.id)).limit(limit);
}
