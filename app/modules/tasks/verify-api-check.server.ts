import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { user } from "#db/schema/auth";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { outboundRequest } from "~/lib/outbound-request.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type CodedFailure, type Failure } from "~/lib/result";
import { signedHeaders } from "~/lib/webhook-signature.server";
import type { AttemptInput, Task, Verified } from "./completions.server";
import { projectSigningSecretOf } from "./signing-secret.server";
import { taskConfigSchemas } from "./task.schema";

/**
 * The check of an `api_check` task (issue #39): we POST to the project's server a JSON body naming
 * the task and the member (their linked wallets, their username), signed as Standard Webhooks says
 * under the project's signing secret, and its answer `{ done, reason? }` decides. Nothing is
 * recorded unless it says done; an answer we cannot read is the project's server's failure, not
 * the member's.
 */

/** What a project's server has to answer within. */
export const API_CHECK_TIMEOUT_MS = 5000;
/** Each check makes a request to the project's server: a member may ask this often per task. */
export const API_CHECK_LIMIT = { max: 6, windowSeconds: 60 } as const;
export const API_CHECK_UNAVAILABLE = "The project's server did not answer; try again.";

/** What the task's check needs: the key the signing secret is kept under, and whether loopback addresses may be reached (the local trial). */
export type ApiCheckContext = { tokenKey: Buffer; allowLoopback: boolean; timeoutMs?: number };

/** The answer a project's server gives. */
export const apiCheckAnswerSchema = z.object({
  done: z.boolean(),
  /** Shown to the member: its first 300 characters. */
  reason: z
    .string()
    .nullish()
    .transform((v) => v?.trim().slice(0, 300) || undefined),
});
export type ApiCheckAnswer = z.output<typeof apiCheckAnswerSchema>;

/** The body we send (the answer to "what does the project's server receive?"). */
export type ApiCheckRequest = {
  type: "api_check";
  task: { id: string | null; title: string };
  member: { id: string; username?: string; wallets: { address: string; chainId: number }[] };
  /** When it was sent (ISO 8601). */
  timestamp: string;
  /** A team member's "Try it" from the task form: no member asked, nothing is recorded. */
  test?: true;
};

/** What a completion keeps of the project's answer (`completion.evidence`). */
export type ApiCheckEvidence =
  | { kind: "project"; host: string; status: number; body: string; at: string }
  /** Pushed through the public API (`POST /api/v1/completions`). */
  | { kind: "pushed"; pushedBy: string; reason: string | null; at: string };

/** What came back from the project's server, read. */
export type ApiCheckReply =
  | { ok: true; status: number; durationMs: number; body: string; answer: ApiCheckAnswer }
  | {
      ok: false;
      problem: "refused" | "timeout" | "unreachable" | "status" | "not_json" | "bad_answer" | "no_secret";
      message: string;
      status: number | null;
      durationMs: number;
      body: string | null;
    };

/** The member as the project's server receives them: their id, username and linked wallets. */
export async function apiCheckMember({ db, userId }: { db: Db; userId: string }): Promise<ApiCheckRequest["member"]> {
  const [[member], wallets] = await Promise.all([
    db.select({ username: user.username }).from(user).where(eq(user.id, userId)),
    db.select({ address: walletAddress.address, chainId: walletAddress.chainId }).from(walletAddress).where(eq(walletAddress.userId, userId)),
  ]);
  return { id: userId, ...(member?.username ? { username: member.username } : {}), wallets };
}

/** Sends one signed request to the project's server and reads its answer. Never throws for what the other side does. */
export async function askProjectServer({
  db,
  projectId,
  url,
  body,
  context,
}: {
  db: Db;
  projectId: string;
  url: string;
  body: ApiCheckRequest;
  context: ApiCheckContext;
}): Promise<ApiCheckReply> {
  const secret = await projectSigningSecretOf({ db, projectId, tokenKey: context.tokenKey });
  if (!secret) {
    const message = "The project's signing secret cannot be read on this server: rotate it in the task's form.";
    return { ok: false, problem: "no_secret", message, status: null, durationMs: 0, body: null };
  }
  const text = JSON.stringify(body);
  // The signature's time is when it is sent, whatever time the caller's rules run at.
  const headers = signedHeaders({ secrets: [secret], id: `chk_${randomUUID()}`, timestamp: Math.floor(Date.now() / 1000), body: text });
  const sent = await outboundRequest({
    url,
    body: text,
    headers: { ...headers, "content-type": "application/json", accept: "application/json" },
    timeoutMs: context.timeoutMs ?? API_CHECK_TIMEOUT_MS,
    maxBytes: 16 * 1024,
    allowLoopback: context.allowLoopback,
  });
  if (!sent.ok) return { ok: false, problem: sent.reason, message: sent.message, status: null, durationMs: sent.durationMs, body: null };
  const problem = (kind: "status" | "not_json" | "bad_answer", message: string): ApiCheckReply => ({
    ok: false,
    problem: kind,
    message,
    status: sent.status,
    durationMs: sent.durationMs,
    body: sent.body.slice(0, 2000),
  });
  if (sent.status < 200 || sent.status > 299) return problem("status", `The server answered ${sent.status}, not 2xx.`);
  let json: unknown;
  try {
    json = JSON.parse(sent.body);
  } catch {
    return problem("not_json", "The answer is not JSON.");
  }
  const answer = apiCheckAnswerSchema.safeParse(json);
  if (!answer.success) return problem("bad_answer", 'The answer is JSON but not { "done": true | false, "reason"?: "…" }.');
  return { ok: true, status: sent.status, durationMs: sent.durationMs, body: sent.body.slice(0, 2000), answer: answer.data };
}

/**
 * The member asked for the check of an api_check task (or the project pushed it: `pushed`, with no
 * request). Done: the answer is kept as evidence; not done: the project's reason; no answer we can
 * read: `unavailable`. A member may ask `API_CHECK_LIMIT` times a minute per task.
 */
export async function verifyApiCheck({
  db,
  task: t,
  userId,
  input,
  now,
  context,
}: {
  db: Db;
  task: Task;
  userId: string;
  input: AttemptInput;
  now: Date;
  context: ApiCheckContext | undefined;
}): Promise<Verified | Failure> {
  if (input.kind === "pushed") {
    const evidence: ApiCheckEvidence = { kind: "pushed", pushedBy: input.apiKeyId, reason: input.reason, at: now.toISOString() };
    return ok({ submission: { pushedAt: now.toISOString() }, verifiedBy: "project" as const, evidence });
  }
  if (input.kind !== "check") return failure("not_met", "Press Check: the project's server says whether you did it.");
  if (!context) return failure("unavailable", "This task's check is not available here. Try again on the task's page.");
  const limit = await takeRateLimit({ db, key: `api-check:${t.id}:${userId}`, ...API_CHECK_LIMIT, now: now.getTime() });
  if (!limit.ok) return failure("limited", `You checked several times just now. Try again in ${limit.retryAfterSeconds} seconds.`, limit.retryAfterSeconds);

  const { url } = taskConfigSchemas.api_check.parse(t.config);
  const body: ApiCheckRequest = {
    type: "api_check",
    task: { id: t.id, title: t.title },
    member: await apiCheckMember({ db, userId }),
    timestamp: new Date().toISOString(),
  };
  const reply = await askProjectServer({ db, projectId: t.projectId, url, body, context });
  if (!reply.ok) return failure("unavailable", API_CHECK_UNAVAILABLE);
  if (!reply.answer.done) return notYet(reply.answer.reason);
  const evidence: ApiCheckEvidence = { kind: "project", host: new URL(url).host, status: reply.status, body: reply.body, at: now.toISOString() };
  return ok({ submission: { checkedAt: now.toISOString() }, verifiedBy: "project" as const, evidence });
}

/** The project's server says not yet: its reason, in its words, or a plain sentence. */
const notYet = (reason: string | undefined): CodedFailure =>
  failure("not_met", reason ? `Not yet: ${reason}` : "Not yet: the project's server says you have not done it. Do it, then check again.");
