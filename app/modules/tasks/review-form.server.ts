import { data } from "react-router";
import type { Db } from "~/lib/db.server";
import { dataWithToast } from "~/lib/flash.server";
import { parseForm } from "~/lib/forms";
import { failureMessage } from "~/lib/result";
import { reviewCompletion } from "./completions.server";
import { submissionsInScope } from "./review-queue.server";
import { voidByTeam } from "./void-approval.server";
import { rejectSchema } from "./task.schema";
import type { ReviewScope } from "./tasks.server";

/** What a review queue's action answers: how many decisions went through, and why the others did not. */
export type ReviewOutcome = {
  decision: "approved" | "rejected" | "voided";
  done: number;
  failed: string[];
  errors?: Record<string, string>;
};

/** Most submissions one request may decide on. */
const BATCH_LIMIT = 500;

/**
 * Approves, rejects or voids (an approval, taking its XP back) the submissions a review queue's
 * form names (one or several), each through the review rules: only those in this queue, never
 * the reviewer's own.
 */
export async function reviewFromForm({
  db,
  projectId,
  scope,
  reviewerId,
  formData,
}: {
  db: Db;
  projectId: string;
  scope: ReviewScope;
  reviewerId: string;
  formData: FormData;
}): Promise<{ status: 200 | 400; outcome: ReviewOutcome }> {
  const intent = formData.get("intent");
  const decision = intent === "reject" ? "rejected" : intent === "void" ? "voided" : "approved";
  let reason: string | undefined;
  if (decision !== "approved") {
    const form = parseForm(rejectSchema, formData);
    if (!form.ok) return { status: 400, outcome: { decision, done: 0, failed: [], errors: form.errors } };
    reason = form.data.reason;
  }
  const asked = [...new Set(formData.getAll("ids").map(String))].slice(0, BATCH_LIMIT);
  const ids = await submissionsInScope({ db, projectId, scope, completionIds: asked });
  const failed: string[] = asked.filter((id) => !ids.includes(id)).map(() => "This submission is not in this review queue.");
  let done = 0;
  for (const completionId of ids) {
    const result =
      decision === "voided"
        ? await voidByTeam({ db, completionId, reviewerId, reason: reason! })
        : await reviewCompletion({ db, completionId, reviewerId, decision, reason });
    if (result.ok) done += 1;
    else failed.push(failureMessage(result));
  }
  return { status: 200, outcome: { decision, done, failed } };
}

const submissions = (n: number) => `${n} ${n === 1 ? "submission" : "submissions"}`;

/**
 * A review action's answer: the outcome for the form (refusals, reasons that failed), and the
 * decisions that went through said by the page once its data reloads, since a decided row leaves
 * its queue in that same reload.
 */
export function reviewAnswer({ status, outcome }: { status: 200 | 400; outcome: ReviewOutcome }, { appUrl }: { appUrl: string }) {
  if (outcome.done === 0) return data(outcome, { status });
  const tried = outcome.done + outcome.failed.length;
  const verb = { approved: "Approved", rejected: "Rejected", voided: "Voided" }[outcome.decision];
  return dataWithToast(outcome, tried > 1 ? `${verb} ${outcome.done} of ${submissions(tried)}` : verb, { appUrl });
}
