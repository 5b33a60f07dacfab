import type { ReactNode } from "react";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { SignInForm } from "./sign-in-form";

/** The sign-in modal: the same flow as /login, over the current page. */
export function SignInDialog({ trigger, redirectTo = "/dashboard" }: { trigger: ReactNode; redirectTo?: string }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogTitle className="sr-only">Sign in</DialogTitle>
        <DialogDescription className="sr-only">Sign in with your e-mail</DialogDescription>
        <SignInForm redirectTo={redirectTo} />
      </DialogContent>
    </Dialog>
  );
}
