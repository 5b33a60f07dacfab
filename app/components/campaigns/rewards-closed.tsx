import { Lock } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Button } from "~/components/ui/button";

/** Shown instead of the reward form once the campaign has ended (its rewards are being or have been paid). */
export function RewardsClosed({ backTo }: { backTo: string }) {
  return (
    <EmptyState
      icon={Lock}
      title="This campaign has ended"
      action={
        <Button asChild variant="outline">
          <Link to={backTo}>Back to the campaign</Link>
        </Button>
      }
    >
      Its rewards are paid when it ends, so they can no longer be added or changed.
    </EmptyState>
  );
}
