/**
 * A transaction's states on the page: idle → prompt (the wallet asks the member) → pending (sent,
 * hash known) → confirmed or failed. A rejection in the wallet goes back to idle with a message;
 * every path ends in a final state, never in a spinner forever.
 */
export type TxState =
  | { status: "idle"; notice?: string }
  | { status: "prompt" }
  | { status: "pending"; hash: string; chainId: number; since: number }
  | { status: "confirmed"; hash: string; chainId: number }
  /** `final`: a refusal a retry cannot change (claimed already, claims closed): nothing to try again. */
  | { status: "failed"; message: string; hash?: string; chainId?: number; final?: boolean };

export type TxEvent =
  | { type: "submit" }
  | { type: "rejected"; message: string }
  | { type: "sent"; hash: string; chainId: number; at: number }
  | { type: "resume"; hash: string; chainId: number; since: number }
  | { type: "confirmed" }
  | { type: "failed"; message: string; final?: boolean }
  | { type: "reset" };

export const IDLE: TxState = { status: "idle" };

export function txReducer(state: TxState, event: TxEvent): TxState {
  switch (event.type) {
    case "submit":
      return state.status === "prompt" || state.status === "pending" ? state : { status: "prompt" };
    case "rejected":
      return state.status === "prompt" ? { status: "idle", notice: event.message } : state;
    case "sent":
      return state.status === "prompt" ? { status: "pending", hash: event.hash, chainId: event.chainId, since: event.at } : state;
    case "resume":
      return state.status === "idle" ? { status: "pending", hash: event.hash, chainId: event.chainId, since: event.since } : state;
    case "confirmed":
      return state.status === "pending" ? { status: "confirmed", hash: state.hash, chainId: state.chainId } : state;
    case "failed":
      if (state.status === "pending") return { status: "failed", message: event.message, hash: state.hash, chainId: state.chainId };
      if (state.status === "prompt")
        return event.final ? { status: "failed", message: event.message, final: true } : { status: "failed", message: event.message };
      return state;
    case "reset":
      return state.status === "prompt" || state.status === "pending" ? state : IDLE;
  }
}

/** Whether the form may start a new transaction. */
export const isBusy = (state: TxState) => state.status === "prompt" || state.status === "pending";

/** How a pending transaction is remembered over a reload (localStorage, one per flow). */
export type PendingTx = { hash: string; chainId: number; since: number; label: string };

export function parsePendingTx(raw: string | null): PendingTx | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingTx>;
    if (typeof value.hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value.hash)) return null;
    if (typeof value.chainId !== "number" || typeof value.since !== "number") return null;
    return { hash: value.hash, chainId: value.chainId, since: value.since, label: typeof value.label === "string" ? value.label : "" };
  } catch {
    return null;
  }
}

/** What a status poll answered (GET /api/chain/tx). */
export type TxStatusAnswer = { status: "pending" | "unknown" } | { status: "success" } | { status: "reverted"; reason: string };

/** Tracking gives up after this long without a receipt, and after this many failed polls in a row. */
export const TRACK_TIMEOUT_MS = 5 * 60_000;
export const MAX_POLL_FAILURES = 8;
/** A hash the node still does not know after this long was dropped (or the chain was reset). */
const UNKNOWN_AFTER_MS = 30_000;

/** What one poll's answer means for the flow: keep polling, or the final event. */
export function pollOutcome(
  answer: TxStatusAnswer | "error",
  { since, now, failures }: { since: number; now: number; failures: number },
): { next: "poll"; failures: number } | { next: "done"; event: Extract<TxEvent, { type: "confirmed" | "failed" }> } {
  if (answer === "error") {
    if (failures + 1 >= MAX_POLL_FAILURES) {
      return {
        next: "done",
        event: {
          type: "failed",
          message: "The network's node is not answering, so the transaction could not be followed. It may still go through: check your wallet's activity.",
        },
      };
    }
    return { next: "poll", failures: failures + 1 };
  }
  if (answer.status === "success") return { next: "done", event: { type: "confirmed" } };
  if (answer.status === "reverted") return { next: "done", event: { type: "failed", message: answer.reason } };
  if (answer.status === "unknown" && now - since > UNKNOWN_AFTER_MS) {
    return {
      next: "done",
      event: {
        type: "failed",
        message:
          "The network does not know this transaction any more: it was dropped, or replaced by another one from your wallet. Check your wallet's activity.",
      },
    };
  }
  if (now - since > TRACK_TIMEOUT_MS) {
    return {
      next: "done",
      event: { type: "failed", message: "Still not confirmed after 5 minutes. It may yet go through: check your wallet's activity before trying again." },
    };
  }
  return { next: "poll", failures: 0 };
}
