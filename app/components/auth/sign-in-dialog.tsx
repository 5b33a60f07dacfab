import { useState, type ReactNode } from "react";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { SignInForm } from "./sign-in-form";

/** The sign-in modal: the same flow as /login, over the current page. */
export function SignInDialog({ trigger, redirectTo = "/dashboard" }: { trigger: ReactNode; redirectTo?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogTitle className="sr-only">Sign in</DialogTitle>
        <DialogDescription className="sr-only">Sign in with your e-mail or a wallet</DialogDescription>
        {/* The wallet modal takes over: this one closes so it does not hold the focus. */}
        <SignInForm redirectTo={redirectTo} onWallet={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
