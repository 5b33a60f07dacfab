import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { cn } from "~/lib/utils";

const LENGTH = 6;

/**
 * Six digit boxes. Typing moves to the next box, Backspace to the previous one, pasting fills them
 * all; `onComplete` fires when the sixth digit is in. Each box is posted under `name`, in order:
 * the action joins them, so the code also goes through a form posted without the page's script
 * (where all six digits may sit in the first box).
 */
export function OtpInput({ name, invalid, disabled, onComplete }: { name: string; invalid?: boolean; disabled?: boolean; onComplete: (code: string) => void }) {
  const [digits, setDigits] = useState<string[]>(() => Array(LENGTH).fill(""));
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  const commit = (next: string[], focus: number) => {
    setDigits(next);
    boxes.current[Math.min(focus, LENGTH - 1)]?.focus();
    if (next.every((d) => d !== "")) onComplete(next.join(""));
  };

  const type = (index: number, value: string) => {
    const typed = value.replace(/\D/g, "");
    if (!typed) return;
    const next = [...digits];
    for (const [offset, digit] of [...typed.slice(0, LENGTH - index)].entries()) next[index + offset] = digit;
    commit(next, index + typed.length);
  };

  const keyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace") {
      event.preventDefault();
      const next = [...digits];
      if (next[index]) next[index] = "";
      else if (index > 0) next[index - 1] = "";
      setDigits(next);
      if (!digits[index] && index > 0) boxes.current[index - 1]?.focus();
    } else if (event.key === "ArrowLeft" && index > 0) {
      boxes.current[index - 1]?.focus();
    } else if (event.key === "ArrowRight" && index < LENGTH - 1) {
      boxes.current[index + 1]?.focus();
    }
  };

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData("text").replace(/\D/g, "").slice(0, LENGTH);
    if (!pasted) return;
    event.preventDefault();
    const next = Array.from({ length: LENGTH }, (_, i) => pasted[i] ?? "");
    commit(next, pasted.length);
  };

  return (
    <div role="group" aria-label="6-digit code" className="flex justify-between gap-2">
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          name={name}
          aria-label={`Digit ${index + 1}`}
          aria-invalid={invalid || undefined}
          inputMode="numeric"
          autoComplete={index === 0 ? "one-time-code" : "off"}
          autoFocus={index === 0}
          maxLength={LENGTH}
          disabled={disabled}
          value={digit}
          onChange={(e) => type(index, e.target.value)}
          onKeyDown={(e) => keyDown(index, e)}
          onPaste={paste}
          onFocus={(e) => e.target.select()}
          className={cn(
            "size-11 rounded-md border border-input bg-transparent text-center text-lg font-semibold outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:size-12",
            invalid && "border-destructive",
          )}
        />
      ))}
    </div>
  );
}
