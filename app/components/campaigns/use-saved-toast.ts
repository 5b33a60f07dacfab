import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { toast } from "~/components/ui/toaster";

/**
 * After a create or edit form redirects here with `?saved=<what>`, says so in a toast and takes
 * the parameter out of the address (so a reload does not say it again).
 */
export function useSavedToast(messages: Record<string, string>) {
  const [params, setParams] = useSearchParams();
  const saved = params.get("saved");
  const message = saved ? messages[saved] : undefined;
  useEffect(() => {
    if (!saved) return;
    if (message) toast.success(message);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("saved");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [saved, message, setParams]);
}
