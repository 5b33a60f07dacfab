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

/** A checkbox with its label and a line saying what it means. */
export function CheckboxField({ name, label, hint, defaultChecked }: { name: string; label: string; hint: ReactNode; defaultChecked: boolean }) {
  return (
    <div className="flex items-start gap-3 rounded-lg border p-3">
      <input
        id={name}
        name={name}
        type="checkbox"
        defaultChecked={defaultChecked}
        className="mt-0.5 size-4 shrink-0 accent-lime-600"
        aria-describedby={`${name}-hint`}
      />
      <div className="grid gap-1">
        <label htmlFor={name} className="text-sm leading-none font-medium">
          {label}
        </label>
        <p id={`${name}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}
