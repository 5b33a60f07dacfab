import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { projectSigningSecret } from "#db/schema/reach";
import { task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { decryptToken } from "~/lib/secret-box.server";
import { verifySignedHeaders } from "~/lib/webhook-signature.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { projectSigningSecretOf } from "~/modules/tasks/signing-secret.server";
import { saveTask } from "~/modules/tasks/tasks.server";

/**
 * The local trial's stand-in for a project's own server (`/dev/api-check`), and the demo's
 * api_check task that asks it. It does what a project's server is told to do: check our signature
 * with the project's signing secret, then answer `{ done }` — here, done once the member has
 * linked a wallet.
 */

const DAY = 24 * 60 * 60 * 1000;
export const DEMO_API_CHECK_PATH = "/dev/api-check";

const demoRequestSchema = z.object({
  type: z.literal("api_check"),
  task: z.object({ id: z.string().nullable() }),
  member: z.object({ wallets: z.array(z.object({ address: z.string(), chainId: z.number() })) }),
});

/** The secrets the request may be signed with: its task's project's, or (a "Try it" of a task not saved yet) every project's. */
async function candidateSecrets(db: Db, tokenKey: Buffer, taskId: string | null): Promise<string[]> {
  if (taskId) {
    const [t] = await db.select({ projectId: task.projectId }).from(task).where(eq(task.id, taskId));
    const secret = t ? await projectSigningSecretOf({ db, projectId: t.projectId, tokenKey }) : null;
    return secret ? [secret] : [];
  }
  const rows = await db.select({ secret: projectSigningSecret.secret }).from(projectSigningSecret);
  return rows.map((r) => decryptToken(tokenKey, r.secret)).filter((s): s is string => s !== null);
}

/** The demo server's answer to one request: 401 for a signature that is not ours, else done when the member has a linked wallet. */
export async function answerDemoApiCheck({
  db,
  tokenKey,
  headers,
  body,
}: {
  db: Db;
  tokenKey: Buffer;
  headers: Record<string, string | undefined>;
  body: string;
}): Promise<{ status: number; json: unknown }> {
  let parsed: z.output<typeof demoRequestSchema>;
  try {
    parsed = demoRequestSchema.parse(JSON.parse(body));
  } catch {
    return { status: 400, json: { error: "Expected an api_check request." } };
  }
  const secrets = await candidateSecrets(db, tokenKey, parsed.task.id);
  if (!secrets.some((secret) => verifySignedHeaders({ secret, headers, body }))) {
    return { status: 401, json: { error: "The signature does not match the project's signing secret." } };
  }
  return { status: 200, json: parsed.member.wallets.length > 0 ? { done: true } : { done: false, reason: "Connect a wallet first" } };
}

/**
 * Adds to the demo's first project a published api_check task pointing at `APP_URL` +
 * `/dev/api-check`, and has its first members (up to `checks` of them) press Check through the real
 * check: those with a linked wallet complete it, the others are told to connect one (nothing
 * recorded). The app does not listen yet while the demo is seeded, so the checks go to the same
 * answer served for the moment on a loopback port; the task is then pointed at the app's route.
 * For the local trial only (loopback). Call it after the members' wallets are linked.
 */
export async function seedApiCheck({
  db,
  tokenKey,
  appUrl,
  projectId,
  memberIds,
  checks = 12,
  now,
}: {
  db: Db;
  /** `env.social.tokenKey`: the project's signing secret is kept under it. */
  tokenKey: Buffer;
  appUrl: string;
  projectId: string;
  /** The demo's members in order (member 1 first). */
  memberIds: string[];
  checks?: number;
  now: Date;
}) {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void answerDemoApiCheck({ db, tokenKey, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") }).then(
        ({ status, json }) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json)),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const stand = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${DEMO_API_CHECK_PATH}`;
    const input = {
      title: "Bring a wallet to Lumen Swap",
      description: "Lumen Swap's own server confirms this one: when you press Check it is asked whether you have a wallet linked.",
      type: "api_check" as const,
      config: { url: stand, instructions: "Link a wallet to your account in Settings › Profile, then press Check: our server answers done once it sees one." },
      xp: 35,
      verification: "auto" as const,
      recurrence: "once" as const,
      startsAt: null,
      endsAt: null,
      cap: null,
      campaignId: null,
      published: true,
    };
    const saved = await saveTask({ db, projectId, input, now: new Date(now.getTime() - 2 * DAY) });
    if (!saved.ok) throw new Error(`demo api_check task: ${failureMessage(saved)}`);
    const apiCheck = { tokenKey, allowLoopback: true };
    let approved = 0;
    for (const [i, userId] of memberIds.slice(0, checks).entries()) {
      const result = await attemptTask({
        db,
        taskId: saved.task.id,
        userId,
        input: { kind: "check" },
        apiCheck,
        now: new Date(now.getTime() - DAY + i * 60_000),
      });
      if (result.ok) approved++;
      else if (result.code !== "not_met") throw new Error(`demo api_check: ${failureMessage(result)}`);
    }
    const pointed = await saveTask({
      db,
      projectId,
      taskId: saved.task.id,
      input: { ...input, config: { ...input.config, url: new URL(DEMO_API_CHECK_PATH, appUrl).toString() } },
      now,
    });
    if (!pointed.ok) throw new Error(`demo api_check task: ${failureMessage(pointed)}`);
    return { taskId: saved.task.id, approved };
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
