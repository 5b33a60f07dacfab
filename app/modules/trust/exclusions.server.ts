import type { Db } from "~/lib/db.server";
import type { Result } from "~/lib/result";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import type { ExclusionScope } from "./trust-types";

/** Owned by the exclusions work: replace these stubs. */

export type ExclusionTarget = { scope: ExclusionScope; scopeId: string };

/** Excludes members (or every member of a cluster) of `projectId`'s participants from the target, with the audit log. */
export async function excludeMembers(_: {
  db: Db;
  projectId: string;
  actorId: string;
  target: ExclusionTarget;
  userIds?: readonly string[];
  clusterId?: string;
  reason: string;
  now?: Date;
}): Promise<Result<{ excluded: number }>> {
  throw new Error("excludeMembers is not built yet");
}

/** Lifts one live exclusion of the project, with the audit log. */
export async function liftExclusion(_: { db: Db; projectId: string; actorId: string; exclusionId: string; reason: string; now?: Date }): Promise<Result> {
  throw new Error("liftExclusion is not built yet");
}

/** Who among `userIds` a pool or airdrop must not pay: userId → the reason in words (live exclusions and the target's gate). */
export async function keptOutOf(_: {
  db: Db;
  chains: OnchainChains;
  target: { kind: "pool"; poolId: string } | { kind: "airdrop"; airdropId: string };
  userIds: readonly string[];
  now: Date;
}): Promise<Map<string, string>> {
  throw new Error("keptOutOf is not built yet");
}
