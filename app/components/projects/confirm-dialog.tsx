import { useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";

/**
 * A button that asks before doing something that cannot be undone. `confirm` renders the
 * confirming button (usually a submit button of a form); the dialog closes once it is pressed.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirm,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirm: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          {confirm(() => setOpen(false))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
