import { Link } from "react-router";
import { ProgressMeter } from "~/components/campaigns/progress-meter";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/** The member's progress through the campaign, or a way to sign in and take part. */
export function CampaignProgress({ progress, signInTo }: { progress: { done: number; total: number } | null; signInTo: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Your progress</CardTitle>
        {!progress && <CardDescription>Sign in to take part and follow your progress.</CardDescription>}
      </CardHeader>
      <CardContent className="pt-4">
        {progress ? (
          <ProgressMeter done={progress.done} total={progress.total} label="Tasks done" />
        ) : (
          <Button asChild variant="brand" className="w-full">
            <Link to={signInTo}>Sign in</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
