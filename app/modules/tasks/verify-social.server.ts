import { failure, invalid, ok, type Failure, type Ok } from "~/lib/result";
import type { Db } from "~/lib/db.server";
import { PROVIDER_LABELS } from "~/modules/social/providers";
import { checkSocialTask } from "~/modules/social/social-tasks.server";
import type { AttemptInput, SocialCheckContext, Task, Verified } from "./completions.server";
import { taskConfigSchemas } from "./task.schema";
import { isProofOnly, SOCIAL_TASK_PROVIDERS, type SocialTaskType } from "./task-checks";

/**
 * A social task: checked through the provider's API, or reviewed proof (TikTok and Instagram
 * follows; an X follow the API does not list, when the task allows it). Proof is never approved
 * here: it waits for the team.
 */
export async function verifySocial(
  db: Db,
  t: Task,
  userId: string,
  input: AttemptInput,
  now: Date,
  context: SocialCheckContext | undefined,
): Promise<Verified | Failure> {
  const provider = SOCIAL_TASK_PROVIDERS[t.type as SocialTaskType];
  const proofAllowed = isProofOnly(t.type) || (t.type === "x_follow" && taskConfigSchemas.x_follow.parse(t.config).allowProof);
  if (input.kind === "proof") {
    if (!proofAllowed) return invalid("form", `This task is checked with ${PROVIDER_LABELS[provider]}: press Check.`);
    const proof = proofOf(input);
    if (!proof.ok) return proof;
    if (t.type === "x_follow") {
      // Proof is for a follow X does not list: X is asked first, and a follow it finds needs no review.
      if (!context) return failure("unavailable", `${PROVIDER_LABELS[provider]} is not set up on this server.`);
      const checked = await checkSocialTask({ db, social: context.social, task: t, userId, now, log: context.log });
      if (checked.ok) return checked;
      if (checked.code !== "not_met") return checked;
    }
    return ok({ submission: proof.submission, verifiedBy: "review" as const, review: true as const });
  }
  if (isProofOnly(t.type)) return invalid("proof", "Send a screenshot or a link that shows you follow the account.");
  if (!context) return failure("unavailable", `${PROVIDER_LABELS[provider]} is not set up on this server.`);
  return checkSocialTask({ db, social: context.social, task: t, userId, now, log: context.log });
}

/** A proof's link (http or https) and screenshot, at least one of them. */
function proofOf(input: Extract<AttemptInput, { kind: "proof" }>): Ok<{ submission: Record<string, unknown> }> | Failure {
  const url = input.url?.trim() || null;
  if (url) {
    try {
      if (!/^https?:$/.test(new URL(url).protocol)) throw new Error();
    } catch {
      return invalid("proof", "Enter a full link starting with https://");
    }
  }
  if (!url && !input.imageUrl) return invalid("proof", "Send a screenshot or a link that shows you follow the account.");
  return ok({ submission: { ...(url ? { url } : {}), ...(input.imageUrl ? { imageUrl: input.imageUrl } : {}) } });
}
