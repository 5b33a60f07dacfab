import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { webhookEndpoint } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { verifySignedHeaders } from "~/lib/webhook-signature.server";
import { signingSecrets } from "./endpoints.server";

/**
 * The local trial's own webhook receiver (`/dev/webhooks`): it checks each message's signature
 * with its endpoint's secret, as a project's server would, and keeps the last 100 in a small file
 * in the data folder (every web process of the trial sees the same list; no table). Never in public mode.
 */

export const DEV_RECEIVER_KEEP = 100;
const FILE = "dev-webhooks.jsonl";

export type DevReceived = {
  receivedAt: string;
  endpointId: string;
  webhookId: string | null;
  type: string | null;
  signatureValid: boolean;
  body: string;
};

export const devReceiverPath = (endpointId: string) => `/dev/webhooks/receive/${encodeURIComponent(endpointId)}`;

/** Checks and keeps one received message; says whether its signature was valid. */
export async function receiveDevWebhook({
  db,
  tokenKey,
  dataDir,
  endpointId,
  headers,
  body,
  now = new Date(),
}: {
  db: Db;
  tokenKey: Buffer;
  dataDir: string;
  endpointId: string;
  headers: Record<string, string | undefined>;
  body: string;
  now?: Date;
}) {
  const [endpoint] = await db
    .select({ secret: webhookEndpoint.secret, previousSecret: webhookEndpoint.previousSecret, previousSecretUntil: webhookEndpoint.previousSecretUntil })
    .from(webhookEndpoint)
    .where(eq(webhookEndpoint.id, endpointId));
  const secrets = endpoint ? signingSecrets({ tokenKey, now }, endpoint) : [];
  const seconds = Math.floor(now.getTime() / 1000);
  const signatureValid = secrets.some((secret) => verifySignedHeaders({ secret, headers, body, now: seconds }));
  const type = typeOf(body);
  const entry: DevReceived = {
    receivedAt: now.toISOString(),
    endpointId,
    webhookId: headers["webhook-id"]?.slice(0, 100) ?? null,
    type,
    signatureValid,
    body: body.slice(0, 2000),
  };
  const file = path.join(dataDir, FILE);
  appendFileSync(file, JSON.stringify(entry) + "\n");
  trim(file);
  return { signatureValid, known: Boolean(endpoint) };
}

function typeOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { type?: unknown };
    return typeof parsed.type === "string" ? parsed.type.slice(0, 100) : null;
  } catch {
    return null;
  }
}

/** Keeps the file from growing: past a few hundred lines, the last 100 are written back. */
function trim(file: string) {
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  if (lines.length <= DEV_RECEIVER_KEEP * 3) return;
  const kept = file + `.${process.pid}.tmp`;
  writeFileSync(kept, lines.slice(-DEV_RECEIVER_KEEP).join("\n") + "\n");
  renameSync(kept, file);
}

/** The last 100 received, newest first. */
export function listDevWebhooks({ dataDir }: { dataDir: string }): DevReceived[] {
  const file = path.join(dataDir, FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(-DEV_RECEIVER_KEEP)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as DevReceived];
      } catch {
        return [];
      }
    })
    .reverse();
}
