import { cloneElement, lazy, Suspense, useState, type ReactElement, type SyntheticEvent } from "react";

type TriggerProps = {
  onClick?: (event: SyntheticEvent) => void;
  onPointerEnter?: (event: SyntheticEvent) => void;
  onFocus?: (event: SyntheticEvent) => void;
  "aria-haspopup"?: "dialog";
  "aria-expanded"?: boolean;
};

// The modal (its dialog primitives and the sign-in form) is fetched when a visitor reaches for
// the trigger, not in the page's first load.
const loadModal = () => import("./sign-in-modal");
const SignInModal = lazy(loadModal);

/** The sign-in modal: the same flow as /login, over the current page. */
export function SignInDialog({ trigger, redirectTo = "/dashboard" }: { trigger: ReactElement<TriggerProps>; redirectTo?: string }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  // Focus goes back to the trigger when the modal closes (it is not a dialog primitive's own trigger).
  const [returnFocus, setReturnFocus] = useState<HTMLElement | null>(null);
  const chain = (own: ((event: SyntheticEvent) => void) | undefined, then: (event: SyntheticEvent) => void) => (event: SyntheticEvent) => {
    own?.(event);
    then(event);
  };
  return (
    <>
      {cloneElement(trigger, {
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        onPointerEnter: chain(trigger.props.onPointerEnter, () => void loadModal()),
        onFocus: chain(trigger.props.onFocus, () => void loadModal()),
        onClick: chain(trigger.props.onClick, (event) => {
          setReturnFocus(event.currentTarget as HTMLElement);
          setUsed(true);
          setOpen(true);
        }),
      })}
      {used && (
        <Suspense fallback={null}>
          <SignInModal open={open} onOpenChange={setOpen} redirectTo={redirectTo} returnFocus={returnFocus} />
        </Suspense>
      )}
    </>
  );
}
