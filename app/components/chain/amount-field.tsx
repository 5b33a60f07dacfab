import type { ReactNode } from "react";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** A token amount typed by the member (decimal keyboard on phones), with its hint or error. */
export function AmountField({
  id,
  label,
  hint,
  error,
  value,
  placeholder,
  onChange,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  value: string;
  placeholder: string;
  /** The new text; the caller clears its error. */
  onChange: (value: string) => void;
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Input
        {...fieldProps(id, error)}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
