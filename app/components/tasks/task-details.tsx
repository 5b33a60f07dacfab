import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import type { TaskCardData } from "./task-card";
import { CheckedBy } from "./checked-by";
import { placesText, RECURRENCE_LABELS } from "./task-format";
import { LocalTime } from "~/components/campaigns/local-time";

type Props = {
  task: TaskCardData;
  project: { slug: string; name: string };
  campaign: { slug: string; name: string; status: string } | null;
  crusade: { slug: string; name: string } | null;
  airdrop?: { slug: string; name: string } | null;
};

const linkClass = "font-medium underline-offset-4 hover:underline wrap-anywhere";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5 text-sm">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

/** The task's facts beside its action: reward, rules, window, places, where it belongs. */
export function TaskDetails({ task, project, campaign, crusade, airdrop = null }: Props) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Details</CardTitle>
      </CardHeader>
      <CardContent className="pt-3">
        <dl className="divide-y">
          <Row label="Reward">
            <Badge variant="brand">{task.xp.toLocaleString("en")} XP</Badge>
          </Row>
          <Row label="Type">{task.typeLabel}</Row>
          <Row label="Verification">
            <CheckedBy task={task} projectName={project.name} />
          </Row>
          <Row label="Recurrence">{task.recurrence === "daily" ? "Daily (UTC day)" : RECURRENCE_LABELS.once}</Row>
          {task.startsAt && (
            <Row label="Opens">
              <LocalTime value={task.startsAt} />
            </Row>
          )}
          {task.endsAt && (
            <Row label="Closes">
              <LocalTime value={task.endsAt} />
            </Row>
          )}
          <Row label="Places">{placesText(task)}</Row>
          <Row label="Project">
            <Link to={route("projects.show", { project: project.slug })} className={linkClass}>
              {project.name}
            </Link>
          </Row>
          {campaign && (
            <Row label="Campaign">
              <Link to={route("campaigns.show", { project: project.slug, campaign: campaign.slug })} className={linkClass}>
                {campaign.name}
              </Link>
            </Row>
          )}
          {crusade && (
            <Row label="Crusade">
              <Link to={route("crusades.show", { project: project.slug, crusade: crusade.slug })} className={linkClass}>
                {crusade.name}
              </Link>
            </Row>
          )}
          {airdrop && (
            <Row label="Airdrop">
              <Link to={route("airdrops.show", { project: project.slug, airdrop: airdrop.slug })} className={linkClass}>
                {airdrop.name}
              </Link>
            </Row>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}
