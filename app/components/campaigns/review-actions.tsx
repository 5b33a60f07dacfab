import { Check, X } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { Field, fieldProps } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";

/** What a review queue's action answers (see `reviewFromForm`). */
type ReviewOutcome = {
  decision: "approved" | "rejected";
  done: number;
  failed: string[];
  errors?: Record<string, string>;
};

const plural = (n: number) => `${n} ${n === 1 ? "submission" : "submissions"}`;

/**
 * A fetcher for review decisions that says in toasts why decisions failed; `onDone` runs after a
 * decision went through. The page says the ones that went through (see `reviewAnswer`): a decided
 * row is gone by the time its answer could be heard here.
 */
function useReviewFetcher(onDone?: () => void) {
  const fetcher = useFetcher<ReviewOutcome>();
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  const result = fetcher.data;
  useEffect(() => {
    if (!result || result.errors) return;
    const reasons = new Map<string, number>();
    for (const reason of result.failed) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    for (const [reason, n] of reasons) toast.error(n > 1 ? `${plural(n)}: ${reason}` : reason);
    done.current?.();
  }, [result]);
  return fetcher;
}

function IdFields({ ids }: { ids: string[] }) {
  return ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />);
}

/** Approves one or more submissions at once. */
export function ApproveButton({ ids, label, size = "sm", onDone }: { ids: string[]; label: string; size?: "sm" | "default"; onDone?: () => void }) {
  const fetcher = useReviewFetcher(onDone);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="approve" />
      <IdFields ids={ids} />
      <Button type="submit" size={size} variant="outline" pending={fetcher.state !== "idle"} aria-label={label} disabled={ids.length === 0}>
        <Check className="text-green-600 dark:text-green-400" /> Approve
      </Button>
    </fetcher.Form>
  );
}

/** Rejects one or more submissions with one reason, asked for in a dialog. */
export function RejectButton({
  ids,
  label,
  description,
  size = "sm",
  onDone,
  voids = false,
}: {
  ids: string[];
  label: string;
  description: ReactNode;
  size?: "sm" | "default";
  onDone?: () => void;
  /** Voids an approval instead (its XP taken back, what it earned with it: a role, a place). */
  voids?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const fetcher = useReviewFetcher(() => {
    setOpen(false);
    onDone?.();
  });
  const error = fetcher.data?.errors?.reason;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" size={size} variant="outline" onClick={() => setOpen(true)} aria-label={label} disabled={ids.length === 0}>
        <X className="text-destructive" /> {voids ? "Void" : "Reject"}
      </Button>
      <DialogContent>
        <DialogTitle>{label}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <fetcher.Form method="post" className="grid gap-4" noValidate>
          <input type="hidden" name="intent" value={voids ? "void" : "reject"} />
          <IdFields ids={ids} />
          <Field id="reason" label="Reason" hint="The member sees it, so they can do better." error={error}>
            <Textarea {...fieldProps("reason", error)} rows={3} maxLength={500} required autoFocus />
          </Field>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" pending={fetcher.state !== "idle"}>
              {voids ? "Void" : "Reject"} {ids.length > 1 ? plural(ids.length) : ""}
            </Button>
          </div>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
