import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "./button";

/** A form's submit button (pending while it saves) and its way back. */
export function FormActions({
  submitLabel,
  pending,
  cancelTo,
  brand = false,
}: {
  submitLabel: ReactNode;
  pending: boolean;
  cancelTo: string;
  brand?: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant={brand ? "brand" : "default"} pending={pending}>
        {submitLabel}
      </Button>
      <Button asChild variant="ghost">
        <Link to={cancelTo}>Cancel</Link>
      </Button>
    </div>
  );
}

/**
 * A checkbox with its label and a line saying what it means, and its error. `keptOn` says why it
 * cannot be unticked: it is shown ticked and disabled, and the form still sends it ticked.
 */
export function CheckboxField({
  name,
  label,
  hint,
  defaultChecked,
  error,
  keptOn,
}: {
  name: string;
  label: string;
  hint: ReactNode;
  defaultChecked: boolean;
  error?: string;
  keptOn?: string | null;
}) {
  const describedBy = [`${name}-hint`, error ? `${name}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="flex items-start gap-3 rounded-lg border p-3">
      {keptOn && <input type="hidden" name={name} value="on" />}
      <input
        id={name}
        name={keptOn ? undefined : name}
        type="checkbox"
        defaultChecked={keptOn ? true : defaultChecked}
        disabled={Boolean(keptOn)}
        className="mt-0.5 size-4 shrink-0 accent-lime-600"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
      <div className="grid gap-1">
        <label htmlFor={name} className="text-sm leading-none font-medium">
          {label}
        </label>
        <p id={`${name}-hint`} className="text-sm text-muted-foreground">
          {keptOn ?? hint}
        </p>
        {error && (
          <p id={`${name}-error`} className="text-sm text-destructive" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
