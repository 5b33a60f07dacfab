import { useState, type ReactNode } from "react";
import { IMAGE_MAX_BYTES, IMAGE_TOO_LARGE, IMAGE_TYPES, megabytes } from "~/lib/images";
import { Field, fieldProps } from "./field";
import { Input } from "./input";

/**
 * An image field that refuses a file over the limit as soon as it is chosen, with the same words
 * the server uses, so a large file is never sent (the server still checks every upload).
 */
export function ImageInput({
  id,
  label,
  hint,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  hint: string;
  error?: string;
  required?: boolean;
  children?: ReactNode;
}) {
  const [tooLarge, setTooLarge] = useState<string>();
  const shown = tooLarge ?? error;
  return (
    <Field id={id} label={label} hint={hint} error={shown}>
      <div className="flex items-center gap-3">
        {children}
        <Input
          {...fieldProps(id, shown)}
          type="file"
          accept={IMAGE_TYPES}
          required={required}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file && file.size > IMAGE_MAX_BYTES) {
              event.currentTarget.value = "";
              setTooLarge(`${IMAGE_TOO_LARGE} (this one is ${megabytes(file.size)}).`);
            } else setTooLarge(undefined);
          }}
        />
      </div>
    </Field>
  );
}
