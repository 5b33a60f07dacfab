import { describe, expect, it } from "vitest";
import { IDLE, isBusy, MAX_POLL_FAILURES, parsePendingTx, pollOutcome, TRACK_TIMEOUT_MS, txReducer, type TxEvent, type TxState } from "./tx-machine";

const HASH = `0x${"ab".repeat(32)}`;
const run = (events: TxEvent[], from: TxState = IDLE) => events.reduce(txReducer, from);

describe("transaction state machine", () => {
  it("goes wallet prompt → pending → confirmed, and back to idle", () => {
    const prompt = run([{ type: "submit" }]);
    expect(prompt).toEqual({ status: "prompt" });
    expect(isBusy(prompt)).toBe(true);
    const pending = txReducer(prompt, { type: "sent", hash: HASH, chainId: 31337, at: 5 });
    expect(pending).toEqual({ status: "pending", hash: HASH, chainId: 31337, since: 5 });
    expect(txReducer(pending, { type: "submit" })).toBe(pending);
    expect(txReducer(pending, { type: "reset" })).toBe(pending);
    const confirmed = txReducer(pending, { type: "confirmed" });
    expect(confirmed).toEqual({ status: "confirmed", hash: HASH, chainId: 31337 });
    expect(txReducer(confirmed, { type: "reset" })).toEqual(IDLE);
  });

  it("a rejection goes back to idle with a notice; a failure keeps the hash when there is one", () => {
    expect(run([{ type: "submit" }, { type: "rejected", message: "You rejected it." }])).toEqual({ status: "idle", notice: "You rejected it." });
    expect(run([{ type: "submit" }, { type: "failed", message: "Sold out." }])).toEqual({ status: "failed", message: "Sold out." });
    // A refusal a retry cannot change is kept as such: the page offers no "Try again".
    expect(run([{ type: "submit" }, { type: "failed", message: "Claimed already.", final: true }])).toEqual({
      status: "failed",
      message: "Claimed already.",
      final: true,
    });
    expect(run([{ type: "submit" }, { type: "sent", hash: HASH, chainId: 1, at: 0 }, { type: "failed", message: "Reverted." }])).toEqual({
      status: "failed",
      message: "Reverted.",
      hash: HASH,
      chainId: 1,
    });
    // Late events of a finished flow change nothing.
    expect(run([{ type: "confirmed" }, { type: "rejected", message: "x" }])).toEqual(IDLE);
  });

  it("resumes a remembered transaction only from idle", () => {
    expect(run([{ type: "resume", hash: HASH, chainId: 56, since: 9 }])).toEqual({ status: "pending", hash: HASH, chainId: 56, since: 9 });
    expect(run([{ type: "submit" }, { type: "resume", hash: HASH, chainId: 56, since: 9 }])).toEqual({ status: "prompt" });
  });

  it("reads a remembered transaction defensively", () => {
    expect(parsePendingTx(JSON.stringify({ hash: HASH, chainId: 31337, since: 1, label: "Mint 5 QUEST" }))).toEqual({
      hash: HASH,
      chainId: 31337,
      since: 1,
      label: "Mint 5 QUEST",
    });
    for (const bad of [null, "", "{", JSON.stringify({ hash: "0x12", chainId: 1, since: 1 }), JSON.stringify({ hash: HASH })]) {
      expect(parsePendingTx(bad)).toBeNull();
    }
  });

  it("every poll ends somewhere: confirmed, reverted, dropped, node down or timed out", () => {
    const at = { since: 0, now: 1000, failures: 0 };
    expect(pollOutcome({ status: "success" }, at)).toEqual({ next: "done", event: { type: "confirmed" } });
    expect(pollOutcome({ status: "reverted", reason: "Sold out." }, at)).toEqual({ next: "done", event: { type: "failed", message: "Sold out." } });
    expect(pollOutcome({ status: "pending" }, at)).toEqual({ next: "poll", failures: 0 });
    expect(pollOutcome({ status: "unknown" }, at)).toEqual({ next: "poll", failures: 0 });
    expect(pollOutcome({ status: "unknown" }, { ...at, now: 60_000 })).toMatchObject({ next: "done", event: { type: "failed" } });
    expect(pollOutcome("error", at)).toEqual({ next: "poll", failures: 1 });
    expect(pollOutcome("error", { ...at, failures: MAX_POLL_FAILURES - 1 })).toMatchObject({ next: "done", event: { type: "failed" } });
    expect(pollOutcome({ status: "pending" }, { ...at, now: TRACK_TIMEOUT_MS + 1 })).toMatchObject({ next: "done", event: { type: "failed" } });
  });
});
