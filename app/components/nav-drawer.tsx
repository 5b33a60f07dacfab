import { Brand, NavItems } from "~/components/nav";
import { Sheet, SheetContent, SheetTitle } from "~/components/ui/sheet";
import { focusBack } from "~/hooks/use-deferred-popup";

/** The navigation in a drawer, for narrow screens; loaded on demand by the app shell. */
export default function NavDrawer({
  open,
  onOpenChange,
  returnFocus,
  signedIn,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: HTMLElement | null;
  signedIn: boolean;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent onCloseAutoFocus={focusBack(returnFocus)}>
        <SheetTitle className="sr-only">Menu</SheetTitle>
        <Brand />
        <NavItems signedIn={signedIn} onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
