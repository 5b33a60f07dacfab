import type { Db } from "~/lib/db.server";
import type { Result } from "~/lib/result";

/**
 * `api_check` tasks (issue #39): the project's own server confirms a member did it. Agreed
 * signature for the public API's `POST /api/v1/completions` (completions:write): the project
 * pushes a completion of one of its api_check tasks for a member. Idempotent per
 * (task, member, period). The body is written by the api_check work; until then it refuses.
 */
export async function pushCompletion(_input: {
  db: Db;
  projectId: string;
  taskId: string;
  userId: string;
  /** What the project's server says of the member, kept on the completion as evidence. */
  done: boolean;
  reason?: string | null;
  /** The API key that pushed it, kept as evidence. */
  apiKeyId: string;
  now?: Date;
}): Promise<Result<{ completionId: string | null; status: "approved" | "already" | "not_done" }>> {
  throw new Error("pushCompletion is not written yet");
}
