import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Marks a value this module encrypted, with the layout's version. */
const PREFIX = "gcm1:";

/**
 * Encrypts a social token for the database: AES-256-GCM with a fresh 12-byte nonce, stored as
 * `gcm1:` + base64url(nonce ‖ tag ‖ ciphertext).
 */
export function encryptToken(key: Buffer, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64url");
}

/** The token, or null when the value is not ours or does not authenticate under this key. */
export function decryptToken(key: Buffer, stored: string): string | null {
  if (!stored.startsWith(PREFIX)) return null;
  const bytes = Buffer.from(stored.slice(PREFIX.length), "base64url");
  if (bytes.length < 28) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export const isEncryptedToken = (value: string | null | undefined) => typeof value === "string" && value.startsWith(PREFIX);
