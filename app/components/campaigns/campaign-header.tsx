import { ClipboardCheck, Pencil, Plus, Trophy } from "lucide-react";
import { Link } from "react-router";
import { ProgressMeter } from "~/components/campaigns/progress-meter";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";

type CampaignIds = { project: string; campaign: string };

/** The campaign page's header buttons, each for who may use it. */
export function CampaignActions({ ids, canReview, canManage, addTask }: { ids: CampaignIds; canReview: boolean; canManage: boolean; addTask: string | null }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline">
        <Link to={route("campaigns.leaderboard", ids)}>
          <Trophy /> Leaderboard
        </Link>
      </Button>
      {canReview && (
        <Button asChild variant="outline">
          <Link to={route("campaigns.submissions", ids)}>
            <ClipboardCheck /> Submissions
          </Link>
        </Button>
      )}
      {canManage && (
        <Button asChild variant="outline">
          <Link to={route("campaigns.edit", ids)}>
            <Pencil /> Edit
          </Link>
        </Button>
      )}
      {addTask && (
        <Button asChild>
          <Link to={addTask}>
            <Plus /> Add task
          </Link>
        </Button>
      )}
    </div>
  );
}

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
