import type { Db } from "~/lib/db.server";
import { failure, type CodedFailure } from "~/lib/result";
import type { GateCheck, OnchainChains } from "~/modules/tasks/completions.server";
import { gateStateOf, storedGate } from "./eligibility.server";
import type { GateState, RuleState } from "./trust-types";

/** Why the gate keeps the member out, in one sentence listing what is still missing; null when it lets them in. */
export function gateRefusalWords(state: GateState, what: string): string | null {
  if (state.passes === true) return null;
  const lines = (s: RuleState["state"]) => state.rules.filter((r) => r.state === s).map((r) => r.words);
  if (state.passes === "unknown") return `Whether you may take part in this ${what} could not be checked now: ${lines("unknown").join("; ")}.`;
  if (state.combine === "all") return `You cannot take part in this ${what} yet. Still needed: ${lines("unmet").join("; ")}.`;
  if (state.combine === "any") return `You cannot take part in this ${what} yet. You need one of: ${lines("unmet").join("; ")}.`;
  return `This ${what} is not open to you: ${lines("met").join("; ")}.`;
}

/**
 * The entry check `attemptTask` runs for a task of a gated campaign or airdrop (passed in by the
 * task's route, since tasks do not import trust): `not_met` listing what is missing, `unavailable`
 * when a node could not answer, null when the member may go on.
 */
export function gateEntryCheck({ db, chains }: { db: Db; chains: OnchainChains | undefined }): GateCheck {
  return async ({ gate, what, projectId, userId, now }): Promise<CodedFailure | null> => {
    const parsed = storedGate(gate);
    if (parsed === null) return null;
    if (parsed === "unreadable") return failure("not_met", `This ${what}'s entry rules cannot be read: the team must save them again.`);
    const state = await gateStateOf({ db, chains: chains ?? { get: () => undefined }, gate: parsed, userId, projectId, now, reads: "page" });
    const words = gateRefusalWords(state, what);
    if (!words) return null;
    return failure(state.passes === "unknown" ? "unavailable" : "not_met", words);
  };
}
