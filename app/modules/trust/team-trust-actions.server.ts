import type { Db } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { failure, ok, type Result } from "~/lib/result";
import { excludeMembers, liftExclusion } from "./exclusions.server";
import { teamTrustSchema } from "./team-trust.schema";
import { exclusionTargets } from "./team-trust.server";

/**
 * A team's trust form, read and done: exclude one participant or a cluster's participants from
 * the project, one of its open pools or one of its airdrops not frozen yet; or lift a live
 * exclusion. The caller has authorized `trust.act`. Answers the toast's words.
 */
export async function teamTrustAction({
  db,
  projectId,
  actorId,
  formData,
  now,
}: {
  db: Db;
  projectId: string;
  actorId: string;
  formData: FormData;
  now?: Date;
}): Promise<Result<{ message: string }>> {
  const form = parseForm(teamTrustSchema, formData);
  if (!form.ok) return form;
  const input = form.data;
  if (input.intent === "lift") {
    const lifted = await liftExclusion({ db, projectId, actorId, exclusionId: input.exclusionId, reason: input.reason, now });
    return lifted.ok ? ok({ message: "Exclusion lifted: the member takes part again" }) : lifted;
  }
  const { open } = await exclusionTargets({ db, projectId });
  const chosen = open.find((t) => t.scope === input.target.scope && (t.scope === "project" || t.scopeId === input.target.scopeId));
  if (!chosen) return failure("conflict", "That pool or airdrop is no longer open to exclusions: choose another.");
  const done = await excludeMembers({
    db,
    projectId,
    actorId,
    target: { scope: chosen.scope, scopeId: chosen.scopeId },
    ...(input.userId ? { userIds: [input.userId] } : { clusterId: input.clusterId }),
    reason: input.reason,
    now,
  });
  if (!done.ok) return done;
  const members = `${done.excluded} ${done.excluded === 1 ? "member" : "members"}`;
  return ok({ message: `Excluded ${members} from ${chosen.scope === "project" ? "the project" : chosen.label}` });
}
