import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { APPEARANCE_KEY, appearanceCookie, parseAppearance, type Appearance } from "~/lib/appearance";

const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

function apply(appearance: Appearance) {
  const dark = appearance === "dark" || (appearance === "system" && darkQuery().matches);
  document.documentElement.classList.toggle("dark", dark);
}

/** Local storage is the store; other tabs' changes arrive as `storage` events, ours as a local event. */
const CHANGE_EVENT = "appearance-change";
function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

type AppearanceState = {
  appearance: Appearance;
  /** Whether the page is dark now (the OS decides under "system"). */
  dark: boolean;
  setAppearance: (next: Appearance) => void;
};

function subscribeToScheme(onChange: () => void) {
  const query = darkQuery();
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
const AppearanceContext = createContext<AppearanceState | null>(null);

/**
 * Holds the member's appearance for the whole page. `initial` is what the server read from the
 * cookie, so the first render matches the server HTML. With "system", the OS scheme is followed live.
 */
export function AppearanceProvider({ initial, children }: { initial: Appearance; children: ReactNode }) {
  const appearance = useSyncExternalStore(
    subscribe,
    () => parseAppearance(window.localStorage.getItem(APPEARANCE_KEY) ?? initial),
    () => initial,
  );

  const systemDark = useSyncExternalStore(
    subscribeToScheme,
    () => darkQuery().matches,
    () => false,
  );
  const dark = appearance === "dark" || (appearance === "system" && systemDark);

  useEffect(() => {
    apply(appearance);
  }, [appearance, systemDark]);

  const setAppearance = useCallback((next: Appearance) => {
    window.localStorage.setItem(APPEARANCE_KEY, next);
    document.cookie = appearanceCookie(next);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);

  const value = useMemo(() => ({ appearance, dark, setAppearance }), [appearance, dark, setAppearance]);
  return <AppearanceContext value={value}>{children}</AppearanceContext>;
}

export function useAppearance() {
  const state = useContext(AppearanceContext);
  if (!state) throw new Error("useAppearance must be used inside <AppearanceProvider>");
  return state;
}
