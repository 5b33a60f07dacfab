import { useNavigation } from "react-router";

/**
 * A thin bar at the top of the page while a navigation or a form submission is under way. It
 * fades in after a short delay, so fast navigations do not flash it.
 */
export function ProgressBar() {
  const busy = useNavigation().state !== "idle";
  return (
    <div
      role="progressbar"
      aria-label="Loading"
      aria-hidden={!busy}
      data-state={busy ? "loading" : "idle"}
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden opacity-0 transition-opacity data-[state=loading]:opacity-100 data-[state=loading]:delay-150"
    >
      {busy && <div className="h-full w-full origin-left bg-[#bbf451]" style={{ animation: "progress-indeterminate 1.1s ease-in-out infinite" }} />}
    </div>
  );
}
