import { eq } from "drizzle-orm";
import { projectSigningSecret } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { decryptToken, encryptToken } from "~/lib/secret-box.server";
import { newWebhookSecret } from "~/lib/webhook-signature.server";

/**
 * The secret a project's server checks our signed requests with (api_check tasks): one per project,
 * made on first need, kept encrypted under the server's token key (`env.social.tokenKey`). It is
 * read here to sign, and shown only to an owner or admin who asks for it (never in a page's data).
 */

/** The project's secret, made now when it has none (two first needs at once agree on one). Null when the stored one does not open under this key. */
export async function projectSigningSecretOf({ db, projectId, tokenKey }: { db: Db; projectId: string; tokenKey: Buffer }): Promise<string | null> {
  const [stored] = await db.select({ secret: projectSigningSecret.secret }).from(projectSigningSecret).where(eq(projectSigningSecret.projectId, projectId));
  if (stored) return decryptToken(tokenKey, stored.secret);
  const secret = newWebhookSecret();
  await db
    .insert(projectSigningSecret)
    .values({ projectId, secret: encryptToken(tokenKey, secret) })
    .onConflictDoNothing();
  const [kept] = await db.select({ secret: projectSigningSecret.secret }).from(projectSigningSecret).where(eq(projectSigningSecret.projectId, projectId));
  return kept ? decryptToken(tokenKey, kept.secret) : null;
}

/** A new secret for the project, replacing the old one at once (its server must take the new one). */
export async function rotateProjectSigningSecret({
  db,
  projectId,
  tokenKey,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  tokenKey: Buffer;
  now?: Date;
}): Promise<string> {
  const secret = newWebhookSecret();
  const stored = encryptToken(tokenKey, secret);
  await db
    .insert(projectSigningSecret)
    .values({ projectId, secret: stored, createdAt: now })
    .onConflictDoUpdate({ target: projectSigningSecret.projectId, set: { secret: stored, createdAt: now } });
  return secret;
}
