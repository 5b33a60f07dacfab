import { useCallback, useEffect, useReducer, useRef } from "react";
import type { ContractCall } from "~/modules/chain/contract-call";
import { txErrorMessage } from "~/modules/chain/tx-error";
import {
  IDLE,
  isBusy,
  parsePendingTx,
  pollOutcome,
  txReducer,
  type PendingTx,
  type TxEvent,
  type TxState,
  type TxStatusAnswer,
} from "~/modules/chain/tx-machine";
import { useWallet } from "~/wallet/wallet-provider";

const POLL_MS = 1000;

/** The flow's state and what it is about ("Mint 5 QUEST"), which submit and resume set. */
type Flow = { tx: TxState; label: string };
const flowReducer = (flow: Flow, event: TxEvent & { label?: string }): Flow => {
  const tx = txReducer(flow.tx, event);
  return tx === flow.tx ? flow : { tx, label: event.label ?? flow.label };
};

/**
 * One transaction flow of a page (the mint, the sale): sends through the wallet, remembers the
 * pending hash in localStorage under `storageKey` (a reload resumes following it) and follows it
 * through the server until it is confirmed or failed.
 */
export function useContractTx({ storageKey, onSettled }: { storageKey: string; onSettled?: (confirmed: boolean, label: string) => void }) {
  const [flow, dispatch] = useReducer(flowReducer, { tx: IDLE, label: "" });
  const state = flow.tx;
  const wallet = useWallet();
  const label = useRef("");
  useEffect(() => {
    label.current = flow.label;
  });
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });

  // A transaction sent before a reload is followed again.
  useEffect(() => {
    const pending = parsePendingTx(window.localStorage.getItem(storageKey));
    if (!pending) return;
    dispatch({ type: "resume", hash: pending.hash, chainId: pending.chainId, since: pending.since, label: pending.label });
  }, [storageKey]);

  const pendingHash = state.status === "pending" ? state.hash : null;
  const pendingChain = state.status === "pending" ? state.chainId : null;
  const pendingSince = state.status === "pending" ? state.since : 0;
  useEffect(() => {
    if (!pendingHash || pendingChain === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const poll = async () => {
      let answer: TxStatusAnswer | "error";
      try {
        const response = await fetch(`/api/chain/tx?${new URLSearchParams({ chainId: String(pendingChain), hash: pendingHash })}`, {
          credentials: "same-origin",
        });
        answer = response.ok ? ((await response.json()) as TxStatusAnswer) : "error";
      } catch {
        answer = "error";
      }
      if (stopped) return;
      const outcome = pollOutcome(answer, { since: pendingSince, now: Date.now(), failures });
      if (outcome.next === "poll") {
        failures = outcome.failures;
        timer = setTimeout(() => void poll(), POLL_MS);
        return;
      }
      window.localStorage.removeItem(storageKey);
      dispatch(outcome.event);
      settled.current?.(outcome.event.type === "confirmed", label.current);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pendingHash, pendingChain, pendingSince, storageKey]);

  const send = useCallback(
    async (call: ContractCall, what: string) => {
      // One transaction at a time: a second click while one is under way sends nothing.
      if (isBusy(state)) return;
      dispatch({ type: "submit", label: what });
      try {
        const hash = await wallet.writeContract(call);
        const pending: PendingTx = { hash, chainId: call.chainId, since: Date.now(), label: what };
        window.localStorage.setItem(storageKey, JSON.stringify(pending));
        dispatch({ type: "sent", hash, chainId: call.chainId, at: pending.since });
      } catch (error) {
        const { kind, message, final } = txErrorMessage(error);
        dispatch(kind === "rejected" ? { type: "rejected", message } : { type: "failed", message, final });
      }
    },
    [wallet, storageKey, state],
  );

  const reset = useCallback(() => dispatch({ type: "reset" }), []);
  return { state, send, reset, label: flow.label };
}
