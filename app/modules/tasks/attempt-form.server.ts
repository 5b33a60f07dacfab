import type { Db } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { failureMessage, failureOnField, invalid, ok } from "~/lib/result";
import { deleteUpload } from "~/modules/users/delete-upload.server";
import { saveImage } from "~/modules/users/avatar.server";
import { ATTEMPT_KINDS, attemptField, attemptSchema, type AttemptKind, type AttemptOutcome } from "./attempt.schema";
import { attemptTask, type AttemptInput, type GateCheck, type OnchainChains, type SocialCheckContext, type Task } from "./completions.server";
import { taskConfigSchemas } from "./task.schema";
import type { ApiCheckContext } from "./verify-api-check.server";

/** The intents the task's page may send: its kind's, reviewed proof for an X follow that allows it, and "Find my transaction" beside a pasted hash. */
export function attemptIntents(task: Pick<Task, "type" | "config">): AttemptKind[] {
  const kind = ATTEMPT_KINDS[task.type];
  if (task.type === "contract_call") return [kind, "find"];
  return task.type === "x_follow" && taskConfigSchemas.x_follow.parse(task.config).allowProof ? [kind, "proof"] : [kind];
}

/**
 * A member's attempt from the task page's form: the input of the task's kind (an uploaded image
 * is stored first and removed again when the attempt fails), then `attemptTask`. Any refusal,
 * whatever its code, is shown on the task's field, keeping its code (which says the answer's
 * status) and a quiz's `retryAfterSeconds`.
 */
export async function attemptFromForm({
  db,
  task,
  userId,
  formData,
  dataDir,
  chains,
  social,
  apiCheck,
  gateCheck,
  now,
}: {
  db: Db;
  task: Task;
  userId: string;
  formData: FormData;
  dataDir: string;
  /** The chains on-chain tasks are checked on. */
  chains?: OnchainChains;
  /** The configured social providers and a logger, for social tasks. */
  social?: SocialCheckContext;
  /** The signing key and reach of an api_check task's request to the project's server. */
  apiCheck?: ApiCheckContext;
  /** The entry check of a gated campaign's or airdrop's tasks (the trust module's gateEntryCheck). */
  gateCheck?: GateCheck;
  now?: Date;
}): Promise<AttemptOutcome> {
  const kind = attemptIntents(task).find((k) => k === formData.get("intent"));
  if (!kind) return invalid("form", "This page is out of date. Reload it and try again.");
  const field = attemptField(task.type, kind);
  // What the member typed comes back with a failure, so the form keeps it.
  const typed = formData.get(kind === "proof" ? "proofUrl" : field);
  const value = typeof typed === "string" ? typed : undefined;
  const form = parseForm(attemptSchema, formData);
  if (!form.ok) return { ...invalid(field, form.errors[field] ?? failureMessage(form)), value };

  let input: AttemptInput;
  let uploaded: string | null = null;
  switch (form.data.intent) {
    case "image": {
      if (form.data.image.size === 0) return invalid(field, "Choose an image");
      const saved = await saveImage({ dataDir, folder: "uploads", owner: userId, file: form.data.image, field });
      if (!saved.ok) return invalid(field, failureMessage(saved));
      uploaded = saved.url;
      input = { kind: "image", imageUrl: saved.url };
      break;
    }
    case "proof": {
      const image = form.data.image && form.data.image.size > 0 ? form.data.image : null;
      if (!image && !form.data.proofUrl) return { ...invalid(field, "Send a screenshot or a link that shows you follow the account."), value };
      if (image) {
        const saved = await saveImage({ dataDir, folder: "uploads", owner: userId, file: image, field });
        if (!saved.ok) return { ...invalid(field, failureMessage(saved)), value };
        uploaded = saved.url;
      }
      input = { kind: "proof", url: form.data.proofUrl || null, imageUrl: uploaded };
      break;
    }
    case "answer":
      input = { kind: "answer", answer: form.data.answer };
      break;
    case "text":
      input = { kind: "text", text: form.data.text };
      break;
    case "url":
      input = { kind: "url", url: form.data.url };
      break;
    case "transaction":
      input = { kind: "transaction", hash: form.data.txHash.toLowerCase() };
      break;
    default:
      input = { kind: form.data.intent };
  }

  const result = await attemptTask({ db, taskId: task.id, userId, input, chains, social, apiCheck, gateCheck, now }).catch(async (error: unknown) => {
    if (uploaded) await deleteUpload({ dataDir, url: uploaded });
    throw error;
  });
  if (result.ok) return ok({ status: result.status, xpAwarded: result.xpAwarded });
  if (uploaded) await deleteUpload({ dataDir, url: uploaded });
  return { ...failureOnField(result, field), value };
}
