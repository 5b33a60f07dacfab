import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Signing as the Standard Webhooks specification says (standardwebhooks.com): the secret is
 * `whsec_` + base64 of its bytes; the signed content is `${webhook-id}.${webhook-timestamp}.${body}`;
 * the signature header is `v1,` + base64(HMAC-SHA256(secret bytes, content)), several separated by
 * spaces (during a rotation, one per valid secret). Used for webhooks and for the requests an
 * `api_check` task sends to a project's server. Checked in tests against the `standardwebhooks`
 * package's own verify.
 */

const SECRET_PREFIX = "whsec_";

/** A new secret, 32 random bytes, in the specification's form. */
export const newWebhookSecret = () => SECRET_PREFIX + randomBytes(32).toString("base64");

const secretBytes = (secret: string) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");

/** The `v1,<base64>` signature of one message under one secret. */
export function signatureOf({ secret, id, timestamp, body }: { secret: string; id: string; timestamp: number; body: string }) {
  return "v1," + createHmac("sha256", secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
}

/**
 * The three headers of a signed message: `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` with one signature per secret given (the new one first during a rotation).
 */
export function signedHeaders({ secrets, id, timestamp, body }: { secrets: string[]; id: string; timestamp: number; body: string }) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signatureOf({ secret, id, timestamp, body })).join(" "),
  };
}

/**
 * Whether a message's headers carry a valid signature under `secret` within `toleranceSeconds` of
 * `now` (seconds): for our own receivers (the local trial's) and for tests.
 */
export function verifySignedHeaders({
  secret,
  headers,
  body,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
}: {
  secret: string;
  headers: Record<string, string | undefined>;
  body: string;
  now?: number;
  toleranceSeconds?: number;
}): boolean {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = headers["webhook-signature"];
  if (!id || !Number.isInteger(timestamp) || !signatures || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf({ secret, id, timestamp, body }));
  return signatures.split(" ").some((given) => {
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  });
}
