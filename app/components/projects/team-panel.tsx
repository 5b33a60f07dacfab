import { ClipboardCheck, Flag, HandCoins, ListPlus, Pencil, Route as RouteIcon, ShieldAlert, Users } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import { ROLE_LABELS, type TeamRole } from "./roles";

export type TeamPermissions = { edit: boolean; team: boolean; quests: boolean; review: boolean; trust: boolean };

/** What a team member can do from the project's page: manage links by permission, and submissions to review. */
export function TeamPanel({
  projectSlug,
  role,
  can,
  reviewCampaigns,
}: {
  projectSlug: string;
  role: TeamRole;
  can: TeamPermissions;
  reviewCampaigns: { id: string; slug: string; name: string; status: string }[];
}) {
  const project = projectSlug;
  const links = [
    can.edit && { to: route("projects.edit", { project }), label: "Edit project", icon: Pencil },
    can.team && { to: route("projects.invites", { project }), label: "Team & invites", icon: Users },
    can.quests && { to: route("tasks.new", { project }), label: "New task", icon: ListPlus },
    can.quests && { to: route("campaigns.new", { project }), label: "New campaign", icon: Flag },
    can.quests && { to: route("crusades.new", { project }), label: "New crusade", icon: RouteIcon },
    can.quests && { to: route("airdrops.new", { project }), label: "New airdrop", icon: HandCoins },
    can.trust && { to: route("projects.trust", { project }), label: "Trust & exclusions", icon: ShieldAlert },
  ].filter((l) => l !== false);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Manage <Badge variant="brand">{ROLE_LABELS[role]}</Badge>
        </CardTitle>
        <CardDescription>Only the team sees this panel and the drafts.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <ul className="grid gap-2">
          {links.map(({ to, label, icon: Icon }) => (
            <li key={label}>
              <Button asChild variant="outline" className="w-full justify-start">
                <Link to={to}>
                  <Icon aria-hidden /> {label}
                </Link>
              </Button>
            </li>
          ))}
        </ul>
        {can.review && (
          <div className="grid gap-2">
            <h3 className="flex items-center gap-2 text-sm font-medium">
              <ClipboardCheck className="size-4 text-muted-foreground" aria-hidden /> Submissions
            </h3>
            <Link
              to={route("projects.review", { project })}
              className="flex items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm font-medium hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              Everything to review
            </Link>
            {reviewCampaigns.length > 0 && (
              <ul className="grid gap-1">
                {reviewCampaigns.map((c) => (
                  <li key={c.id}>
                    <Link
                      to={route("campaigns.submissions", { project, campaign: c })}
                      className="flex items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                    >
                      <span className="truncate">{c.name}</span>
                      <span className="shrink-0 text-xs text-muted-foreground capitalize">{c.status}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
