import type { Db } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { failureMessage, invalid, ok } from "~/lib/result";
import { deleteUpload } from "~/modules/users/delete-upload.server";
import { saveImage } from "~/modules/users/avatar.server";
import { ATTEMPT_KINDS, attemptField, attemptSchema, type AttemptOutcome } from "./attempt.schema";
import { attemptTask, type AttemptInput, type BalanceReader, type Task } from "./completions.server";

/**
 * A member's attempt from the task page's form: the input of the task's kind (an uploaded image
 * is stored first and removed again when the attempt fails), then `attemptTask`. Any refusal,
 * whatever its code, is shown on the task's field as a field error (so answered 400), keeping a
 * quiz's `retryAfterSeconds`.
 */
export async function attemptFromForm({
  db,
  task,
  userId,
  formData,
  dataDir,
  readBalance,
}: {
  db: Db;
  task: Task;
  userId: string;
  formData: FormData;
  dataDir: string;
  readBalance: BalanceReader;
}): Promise<AttemptOutcome> {
  const kind = ATTEMPT_KINDS[task.type];
  const field = attemptField(task.type);
  // What the member typed comes back with a failure, so the form keeps it.
  const typed = formData.get(field);
  const value = typeof typed === "string" ? typed : undefined;
  if (formData.get("intent") !== kind) return invalid("form", "This page is out of date. Reload it and try again.");
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
    case "answer":
      input = { kind: "answer", answer: form.data.answer };
      break;
    case "text":
      input = { kind: "text", text: form.data.text };
      break;
    case "url":
      input = { kind: "url", url: form.data.url };
      break;
    default:
      input = { kind: form.data.intent };
  }

  const result = await attemptTask({ db, taskId: task.id, userId, input, readBalance }).catch(async (error: unknown) => {
    if (uploaded) await deleteUpload({ dataDir, url: uploaded });
    throw error;
  });
  if (result.ok) return ok({ status: result.status, xpAwarded: result.xpAwarded });
  if (uploaded) await deleteUpload({ dataDir, url: uploaded });
  const retryAfterSeconds = result.code === "invalid" ? undefined : result.retryAfterSeconds;
  return { ...invalid(field, failureMessage(result)), value, retryAfterSeconds };
}
