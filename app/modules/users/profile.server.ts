import { and, eq, exists, getTableColumns, ne, sql } from "drizzle-orm";
import { account, user } from "#db/schema/auth";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { hasRealEmail } from "~/modules/wallets/wallets.server";
import { isUniqueViolation } from "~/lib/db-errors";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";

export type Profile = {
  id: string;
  name: string;
  username: string | null;
  /** Null for a member who signed up with a wallet and has not added an e-mail. */
  email: string | null;
  image: string | null;
  createdAt: Date;
  hasPassword: boolean;
};

export async function getProfile({ db, userId }: { db: Db; userId: string }): Promise<Profile | null> {
  const [row] = await profileStatement(db).execute({ userId });
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: hasRealEmail(row.email) ? row.email : null,
    image: row.image,
    createdAt: row.createdAt,
    hasPassword: Boolean(row.hasPassword),
  };
}

/** Read on the dashboard and in settings: prepared once per connection. */
const profileStatement = preparedPerDb((db) =>
  db
    .select({
      ...getTableColumns(user),
      hasPassword: exists(
        db
          .select({ id: account.id })
          .from(account)
          .where(and(eq(account.userId, sql.placeholder("userId")), eq(account.providerId, "credential"))),
      ),
    })
    .from(user)
    .where(eq(user.id, sql.placeholder("userId")))
    .prepare("questline_profile"),
);

/** Saved, or the username refused: another member has it. */
export type UpdateProfileResult = Ok | FieldFailure;

/** Saves the display name, username and (when given) the new avatar URL. Usernames are unique. */
export async function updateProfile({
  db,
  userId,
  name,
  username,
  image,
}: {
  db: Db;
  userId: string;
  name: string;
  username: string | null;
  image?: string;
}): Promise<UpdateProfileResult> {
  if (username) {
    const [taken] = await db
      .select({ id: user.id })
      .from(user)
      .where(and(eq(user.username, username), ne(user.id, userId)));
    if (taken) return invalid("username", "That username is taken");
  }
  try {
    await db
      .update(user)
      .set({ name, username, ...(image ? { image } : {}), updatedAt: new Date() })
      .where(eq(user.id, userId));
  } catch (error) {
    // Two members racing for one name: the unique index decides.
    if (isUniqueViolation(error)) return invalid("username", "That username is taken");
    throw error;
  }
  return ok();
}
