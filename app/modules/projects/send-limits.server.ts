import type { Db } from "~/lib/db.server";
import type { Env } from "~/services/env.server";
import { rateLimitWait, takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import { waitWords } from "~/lib/wait-words";

/**
 * Limits on what sends mail to others or fills the platform: invitations (new or resent) per
 * project and per inviter per hour, a cooldown between two resends of one invitation, and new
 * projects per member per day. Counted in the database (`rate_limit`), so several processes share
 * them; the numbers come from configuration.
 */
export type SendLimits = Pick<
  Env,
  "INVITES_PER_PROJECT_PER_HOUR" | "INVITES_PER_INVITER_PER_HOUR" | "INVITE_RESEND_COOLDOWN_SECONDS" | "PROJECTS_PER_MEMBER_PER_DAY"
>;

/** Allowed, or refused as `limited` with when to come back. */
export type Claim = Ok | CodedFailure;

const HOUR = 3600;
const DAY = 24 * HOUR;
const resendKey = (inviteId: string) => `invite-resend:${inviteId}`;

/** Counts one invitation (new or resent) for the project and the inviter; refuses past either hourly limit. */
export async function claimInvitation({
  db,
  limits,
  projectId,
  inviterId,
  now,
}: {
  db: Db;
  limits: SendLimits;
  projectId: string;
  inviterId: string;
  now?: number;
}): Promise<Claim> {
  const mine = await takeRateLimit({ db, key: `invites-by:${inviterId}`, max: limits.INVITES_PER_INVITER_PER_HOUR, windowSeconds: HOUR, now });
  if (!mine.ok) {
    return failure(
      "limited",
      `You have sent ${limits.INVITES_PER_INVITER_PER_HOUR} invitations in the last hour. Try again in ${waitWords(mine.retryAfterSeconds)}.`,
      mine.retryAfterSeconds,
    );
  }
  const project = await takeRateLimit({ db, key: `invites-of:${projectId}`, max: limits.INVITES_PER_PROJECT_PER_HOUR, windowSeconds: HOUR, now });
  if (!project.ok) {
    return failure(
      "limited",
      `This project has sent ${limits.INVITES_PER_PROJECT_PER_HOUR} invitations in the last hour. Try again in ${waitWords(project.retryAfterSeconds)}.`,
      project.retryAfterSeconds,
    );
  }
  return ok();
}

/** One resend of an invitation per cooldown; then it counts as an invitation like any other. */
export async function claimResend(args: { db: Db; limits: SendLimits; projectId: string; inviterId: string; inviteId: string; now?: number }): Promise<Claim> {
  const { db, limits, inviteId, now } = args;
  const cooldown = await takeRateLimit({ db, key: resendKey(inviteId), max: 1, windowSeconds: limits.INVITE_RESEND_COOLDOWN_SECONDS, now });
  if (!cooldown.ok) {
    return failure("limited", `This invitation was just sent. You can resend it in ${waitWords(cooldown.retryAfterSeconds)}.`, cooldown.retryAfterSeconds);
  }
  return claimInvitation(args);
}

/** A new invitation was just sent: its first resend waits a cooldown too. */
export async function startResendCooldown({ db, limits, inviteId, now }: { db: Db; limits: SendLimits; inviteId: string; now?: number }) {
  await takeRateLimit({ db, key: resendKey(inviteId), max: 1, windowSeconds: limits.INVITE_RESEND_COOLDOWN_SECONDS, now });
}

/** Seconds until each of these invitations may be resent (absent: now). */
export async function resendWaits({ db, limits, inviteIds, now }: { db: Db; limits: SendLimits; inviteIds: string[]; now?: number }) {
  const waits = await rateLimitWait({ db, keys: inviteIds.map(resendKey), max: 1, windowSeconds: limits.INVITE_RESEND_COOLDOWN_SECONDS, now });
  return new Map(inviteIds.filter((id) => waits.has(resendKey(id))).map((id) => [id, waits.get(resendKey(id))!]));
}

/** Counts one new project for the member; refuses past the daily limit. */
export async function claimNewProject({ db, limits, userId, now }: { db: Db; limits: SendLimits; userId: string; now?: number }): Promise<Claim> {
  const claim = await takeRateLimit({ db, key: `projects-by:${userId}`, max: limits.PROJECTS_PER_MEMBER_PER_DAY, windowSeconds: DAY, now });
  if (claim.ok) return ok();
  return failure(
    "limited",
    `You have created ${limits.PROJECTS_PER_MEMBER_PER_DAY} projects today. Try again in ${waitWords(claim.retryAfterSeconds)}.`,
    claim.retryAfterSeconds,
  );
}
