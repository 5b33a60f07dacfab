import { cloneElement, lazy, Suspense, type ReactElement, type SyntheticEvent } from "react";
import { useDeferredPopup } from "~/hooks/use-deferred-popup";
import { route } from "~/lib/routes";

type Handler = (event: SyntheticEvent) => void;
type TriggerProps = { onClick?: Handler; onPointerEnter?: Handler; onFocus?: Handler; type?: string };

const loadModal = () => import("./sign-in-modal");
const SignInModal = lazy(loadModal);

/**
 * The sign-in modal: the same flow as /login, over the current page; its code comes when first
 * reached for. The trigger submits a form that opens /login, so a click before the page's script
 * has taken over still leads to signing in; once it has, the click opens the modal instead.
 */
export function SignInDialog({ trigger, redirectTo = "/dashboard" }: { trigger: ReactElement<TriggerProps>; redirectTo?: string }) {
  const { open, setOpen, used, returnFocus, triggerProps } = useDeferredPopup(loadModal);
  const both = (own: Handler | undefined, ours: Handler) => (event: SyntheticEvent) => {
    own?.(event);
    ours(event);
  };
  const openModal = (event: SyntheticEvent) => {
    event.preventDefault();
    triggerProps.onClick(event);
  };
  return (
    <>
      <form method="get" action={route("login")} className="contents">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {cloneElement(trigger, {
          ...triggerProps,
          type: "submit",
          onPointerEnter: both(trigger.props.onPointerEnter, triggerProps.onPointerEnter),
          onFocus: both(trigger.props.onFocus, triggerProps.onFocus),
          onClick: both(trigger.props.onClick, openModal),
        })}
      </form>
      {used && (
        <Suspense fallback={null}>
          <SignInModal open={open} onOpenChange={setOpen} redirectTo={redirectTo} returnFocus={returnFocus} />
        </Suspense>
      )}
    </>
  );
}
