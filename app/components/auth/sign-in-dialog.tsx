import { cloneElement, lazy, Suspense, type ReactElement, type SyntheticEvent } from "react";
import { useDeferredPopup } from "~/hooks/use-deferred-popup";
import { PageFallback } from "~/components/ui/page-fallback";
import { route } from "~/lib/routes";

type Handler = (event: SyntheticEvent) => void;
type TriggerProps = { onClick?: Handler; onPointerEnter?: Handler; onFocus?: Handler };

const loadModal = () => import("./sign-in-modal");
const SignInModal = lazy(loadModal);

/**
 * The sign-in modal: the same flow as /login, over the current page; its code comes when first
 * reached for. Before the page's script has taken over, the trigger opens /login instead
 * (`PageFallback`), so a click then still leads to signing in.
 */
export function SignInDialog({ trigger, redirectTo = "/dashboard" }: { trigger: ReactElement<TriggerProps>; redirectTo?: string }) {
  const { open, setOpen, used, returnFocus, triggerProps } = useDeferredPopup(loadModal);
  const both = (own: Handler | undefined, ours: Handler) => (event: SyntheticEvent) => {
    own?.(event);
    ours(event);
  };
  return (
    <>
      <PageFallback action={route("login")} fields={{ redirectTo }}>
        {cloneElement(trigger, {
          ...triggerProps,
          onPointerEnter: both(trigger.props.onPointerEnter, triggerProps.onPointerEnter),
          onFocus: both(trigger.props.onFocus, triggerProps.onFocus),
          onClick: both(trigger.props.onClick, triggerProps.onClick),
        })}
      </PageFallback>
      {used && (
        <Suspense fallback={null}>
          <SignInModal open={open} onOpenChange={setOpen} redirectTo={redirectTo} returnFocus={returnFocus} />
        </Suspense>
      )}
    </>
  );
}
