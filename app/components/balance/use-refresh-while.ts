import { useCallback, useEffect, useState } from "react";
import { useRevalidator } from "react-router";

const EVERY_MS = 2000;
/** After `kick()`, keep refreshing this long even if nothing shows as under way yet (the scanner has not seen a deposit). */
const KICK_MS = 60_000;

/**
 * Reloads the page's data every two seconds while `active` (deposits confirming, withdrawals
 * being paid) or for a minute after `kick()`; returns `kick`.
 */
export function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  const [kickedUntil, setKickedUntil] = useState(0);
  const kick = useCallback(() => setKickedUntil(Date.now() + KICK_MS), []);
  const polling = active || kickedUntil > 0;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      if (!active && Date.now() > kickedUntil) setKickedUntil(0);
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [polling, active, kickedUntil, revalidator]);
  return kick;
}
