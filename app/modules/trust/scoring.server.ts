import type { Db } from "~/lib/db.server";
import type { TrustReason } from "./trust-types";

/** Owned by the scoring work: replace this stub. */
export type ScoringRun = { members: number; clusters: number; flagged: number };

/** Finds the clusters from every kept signal and writes every member's score with its reasons, set-based. */
export async function scoreMembers(_: { db: Db; sharedFunders: ReadonlySet<string>; now?: Date }): Promise<ScoringRun> {
  throw new Error("scoreMembers is not built yet");
}

export type MemberTrust = { score: number; flagged: boolean; reasons: TrustReason[]; computedAt: Date };

/** A member's score and reasons, or null before the first scoring run saw them. */
export async function trustOf(_: { db: Db; userId: string }): Promise<MemberTrust | null> {
  throw new Error("trustOf is not built yet");
}
