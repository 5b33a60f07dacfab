import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { focusBack } from "~/hooks/use-deferred-popup";
import { SignInForm } from "./sign-in-form";

/** The sign-in dialog's content; loaded on demand by sign-in-dialog.tsx. */
export default function SignInModal({
  open,
  onOpenChange,
  redirectTo,
  returnFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  redirectTo: string;
  returnFocus: HTMLElement | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={focusBack(returnFocus)}>
        <DialogTitle className="sr-only">Sign in</DialogTitle>
        <DialogDescription className="sr-only">Sign in with your e-mail or a wallet</DialogDescription>
        {/* The wallet modal takes over: this one closes so it does not hold the focus. */}
        <SignInForm redirectTo={redirectTo} onWallet={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
