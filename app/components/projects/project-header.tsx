import { ClipboardCheck, Gift, Globe, ListChecks, MessageCircle, Send } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { route } from "~/lib/routes";
import type { Asset } from "~/modules/ledger/assets";
import { ProjectLogo } from "./project-logo";
import { RewardsPaidIn } from "./rewards-token";

export type ProjectHeaderData = {
  slug: string;
  name: string;
  description: string;
  logoUrl: string | null;
  bannerUrl: string | null;
  website: string | null;
  xUrl: string | null;
  discordUrl: string | null;
  telegramUrl: string | null;
  category: { slug: string; name: string } | null;
};

function XLogo() {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden>
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}

/** The top of a project's page: banner, logo, name, category, links, description and the token its rewards are paid in. */
export function ProjectHeader({ project, actions, rewardAsset = null }: { project: ProjectHeaderData; actions?: ReactNode; rewardAsset?: Asset | null }) {
  const links = [
    { href: project.website, label: "Website", icon: <Globe aria-hidden /> },
    { href: project.xUrl, label: "X", icon: <XLogo /> },
    { href: project.discordUrl, label: "Discord", icon: <MessageCircle aria-hidden /> },
    { href: project.telegramUrl, label: "Telegram", icon: <Send aria-hidden /> },
  ].filter((l): l is typeof l & { href: string } => Boolean(l.href));
  return (
    <header className="mb-8 overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm">
      <div className="h-28 bg-linear-to-r from-brand/40 via-brand/15 to-muted sm:h-40">
        {project.bannerUrl && <img src={project.bannerUrl} alt="" className="size-full object-cover" />}
      </div>
      <div className="grid gap-4 p-4 sm:p-6">
        <div className="-mt-12 flex flex-wrap items-end justify-between gap-4 sm:-mt-16">
          <ProjectLogo name={project.name} logoUrl={project.logoUrl} className="size-20 border-4 border-card bg-muted text-xl sm:size-24" />
          {actions}
        </div>
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{project.name}</h1>
          {project.category && (
            <div>
              <Link
                to={route("categories.show", { category: project.category })}
                className="inline-flex rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <Badge variant="outline" className="hover:bg-accent">
                  {project.category.name}
                </Badge>
              </Link>
            </div>
          )}
          {project.description && <p className="max-w-3xl text-sm whitespace-pre-line text-muted-foreground">{project.description}</p>}
          <RewardsPaidIn asset={rewardAsset} />
        </div>
        {links.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label="Links">
            {links.map((link) => (
              <li key={link.label}>
                <Button asChild variant="outline" size="sm">
                  <a href={link.href} target="_blank" rel="noopener noreferrer nofollow">
                    {link.icon} {link.label}
                  </a>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </header>
  );
}

/** For those who may review: the project's "To review" page, with how many submissions wait. */
export function ToReviewLink({ projectSlug, count }: { projectSlug: string; count: number }) {
  const waiting = `${count.toLocaleString("en")} ${count === 1 ? "submission waits" : "submissions wait"} for review`;
  return (
    <Button asChild variant={count > 0 ? "brand" : "outline"} size="sm">
      <Link to={route("projects.review", { project: projectSlug })} aria-label={`To review: ${waiting}`} title={waiting}>
        <ClipboardCheck aria-hidden /> To review
        <Badge variant={count > 0 ? "secondary" : "outline"} className="tabular-nums">
          {count.toLocaleString("en")}
        </Badge>
      </Link>
    </Button>
  );
}

/** The project's Rewards page: every campaign's rewards, and for its owners and admins the treasury. */
export function ProjectRewardsLink({ projectSlug }: { projectSlug: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={route("projects.rewards", { project: projectSlug })}>
        <Gift aria-hidden /> Rewards
      </Link>
    </Button>
  );
}

/** The project's Tasks page: every task, wherever it is. */
export function ProjectTasksLink({ projectSlug }: { projectSlug: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={route("projects.tasks", { project: projectSlug })} aria-label="Tasks of this project">
        <ListChecks aria-hidden /> Tasks
      </Link>
    </Button>
  );
}
