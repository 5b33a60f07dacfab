import { Sparkles } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/** What the campaign's tasks pay: the XP of each, on approval (reward pools come on top, see RewardPools). */
export function XpRewardCard({ xp, tasks, daily }: { xp: number; tasks: number; daily: number }) {
  return (
    <Card>
      <CardHeader>
        <CardDescription className="flex items-center gap-2">
          <Sparkles className="size-4 text-lime-600 dark:text-brand" aria-hidden /> Task XP
        </CardDescription>
        <CardTitle className="text-2xl tabular-nums">{xp.toLocaleString("en")} XP</CardTitle>
      </CardHeader>
      <CardContent className="pt-3 text-sm text-muted-foreground">
        {tasks === 0
          ? "Earned by completing this campaign's tasks, once it has some."
          : tasks === 1
            ? "Earned by completing its task, paid when approved."
            : `Earned by completing all ${tasks} tasks; each task pays its XP when approved.`}
        {daily > 0 && ` ${daily === 1 ? "One daily task pays" : `${daily} daily tasks pay`} again every day (UTC).`}
      </CardContent>
    </Card>
  );
}
