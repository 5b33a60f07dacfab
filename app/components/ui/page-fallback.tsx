import { cloneElement, type ReactElement, type SyntheticEvent } from "react";

type ControlProps = { type?: string; onClick?: (event: SyntheticEvent) => void };

/**
 * A control whose own click needs the page's script (a modal, a drawer, a form's next step), made
 * to work before the script has taken over, or without it: it submits a GET form that opens the
 * page doing the same job (`action`, with `fields` as its query). Once the script runs, the
 * submission is stopped and the control's own click handler runs in its place.
 */
export function PageFallback({ action, fields = {}, children }: { action: string; fields?: Record<string, string>; children: ReactElement<ControlProps> }) {
  const ownClick = children.props.onClick;
  return (
    <form method="get" action={action} className="contents">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {cloneElement(children, {
        type: "submit",
        onClick: (event: SyntheticEvent) => {
          event.preventDefault();
          ownClick?.(event);
        },
      })}
    </form>
  );
}
