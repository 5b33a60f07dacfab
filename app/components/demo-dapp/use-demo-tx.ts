import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useContractTx } from "~/components/chain/use-contract-tx";
import { toast } from "~/components/ui/toaster";

/**
 * One of the Demo dApp's transaction flows (useContractTx: simulate, send through the wallet,
 * follow to confirmation): a toast with the transaction hash when it is sent and when it is
 * confirmed, one with the sentence when it fails, and the page's holdings read again once settled.
 */
export function useDemoTx(storageKey: string) {
  const revalidator = useRevalidator();
  const tx = useContractTx({ storageKey, onSettled: () => void revalidator.revalidate() });
  const { state, label } = tx;
  const announced = useRef<string | null>(null);
  useEffect(() => {
    const key =
      state.status === "pending" || state.status === "confirmed"
        ? `${state.status}:${state.hash}`
        : state.status === "failed"
          ? `failed:${state.message}`
          : null;
    if (key === null || announced.current === key) return;
    announced.current = key;
    if (state.status === "pending") toast.success(`${label}: sent`, { id: storageKey, description: `Transaction ${state.hash}` });
    else if (state.status === "confirmed") toast.success(`${label}: confirmed`, { id: storageKey, description: `Transaction ${state.hash}` });
    else if (state.status === "failed") toast.error(state.message, { id: storageKey });
  }, [state, label, storageKey]);
  return tx;
}
