import { campaignStatus } from "~/modules/tasks/campaign-status";
import type { AirdropRule, AirdropStatus } from "./airdrop-types";

/**
 * Where an airdrop stands, as its pages say it:
 * - `draft`: unpublished (only its team sees it); `upcoming`: published, not started;
 * - `live`: its tasks earn points on its board; `ended`: over, its allocation not frozen yet
 *   (the worker freezes it within a minute);
 * - `frozen`: the allocation and its tree are written, claims not open (no round yet, or the round
 *   is being funded and opened); `claimable`: the round is open until its deadline;
 * - `closed`: the deadline passed (what was not claimed waits to be swept back); `swept`: the
 *   rest went back to the project; `failed`: the round could not be opened in time and never
 *   will be (decision 027): the escrow went back to the project; `previous_chain`: its round was
 *   made on an earlier run of the chain (the local chain started afresh): it is not on the chain.
 */
export const AIRDROP_PHASES = ["draft", "upcoming", "live", "ended", "frozen", "claimable", "closed", "swept", "failed", "previous_chain"] as const;
export type AirdropPhase = (typeof AIRDROP_PHASES)[number];

/** The steps of an airdrop's on-chain round (db/schema/airdrops.ts `AIRDROP_ROUND_STEPS`). */
export type AirdropRoundStep = "funding" | "approving" | "opening" | "open" | "sweeping" | "swept" | "failed" | "previous_chain";

/** What the phase reads of an airdrop and of its round (null before the round exists). */
export type PhaseInput = {
  status: AirdropStatus;
  publishedAt: Date | string | null;
  startsAt: Date | string;
  endsAt: Date | string;
};
export type RoundInput = { step: AirdropRoundStep; deadline: number } | null;

export function airdropPhase(a: PhaseInput, round: RoundInput, now: Date = new Date()): AirdropPhase {
  if (a.status === "frozen") {
    if (round?.step === "failed") return "failed";
    if (round?.step === "previous_chain") return "previous_chain";
    if (!round || (round.step !== "open" && round.step !== "sweeping" && round.step !== "swept")) return "frozen";
    if (round.step === "swept") return "swept";
    return round.step === "open" && now.getTime() < round.deadline * 1000 ? "claimable" : "closed";
  }
  const status = campaignStatus(
    { publishedAt: a.publishedAt ? new Date(a.publishedAt) : null, startsAt: new Date(a.startsAt), endsAt: new Date(a.endsAt) },
    now,
  );
  return status === "scheduled" ? "upcoming" : status;
}

/** When claims close: the round's deadline once it exists, else the airdrop's own. */
export const claimDeadlineOf = (a: { claimDeadline: Date | string }, round: RoundInput): Date =>
  round ? new Date(round.deadline * 1000) : new Date(a.claimDeadline);

/** Frozen: its allocation is written (whatever became of its round). */
export const isFrozenPhase = (phase: AirdropPhase) =>
  phase === "frozen" || phase === "claimable" || phase === "closed" || phase === "swept" || phase === "failed" || phase === "previous_chain";

/** The airdrop still takes changes and new tasks: not frozen, not ended (as saveAirdrop and the task form have it). */
export const airdropOpen = (a: { status: AirdropStatus; endsAt: Date | string }, now: Date = new Date()) =>
  a.status === "open" && new Date(a.endsAt).getTime() > now.getTime();

export const RULE_LABELS: Record<AirdropRule, string> = { pro_rata: "In proportion to points", top: "Fixed amounts for the top ranks" };
