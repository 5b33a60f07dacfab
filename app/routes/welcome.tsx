import { Award, ListChecks, Sparkles, Trophy } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/welcome";
import { AppearanceSwitch } from "~/components/appearance-switch";
import { SignInDialog } from "~/components/auth/sign-in-dialog";
import { Button } from "~/components/ui/button";
import { useAppName } from "~/hooks/root-data";
import { publicMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { useRootData } from "~/root";
import type { VisitorPage } from "~/lib/visitor-page";

/**
 * The same for every signed-out visitor: shared caches may keep it a few seconds, and it reads
 * nothing, so the server renders it once for all visitors without cookies.
 */
export const handle: VisitorPage = { visitorPage: true, readsNothing: true };

export function meta(args: Route.MetaArgs) {
  const appName = args.matches[0].loaderData.appName;
  return publicMeta(args, {
    description: `${appName} is where Web3 communities run campaigns, crusades, airdrops and tasks, and members earn XP and token rewards and climb leaderboards.`,
  });
}

const FEATURES = [
  {
    icon: ListChecks,
    title: "Tasks and crusades",
    text: "Quizzes, links to visit, follows, likes, posts and subscriptions on X, YouTube, TikTok and Instagram (checked through the member's connected account), posts and images the team reviews, tokens held (checked on chain), referrals. Crusades go in order.",
  },
  { icon: Trophy, title: "Leaderboards", text: "XP per project, campaign and task, over all time, 30 days or 7 days. Always see your own rank." },
  {
    icon: Award,
    title: "XP and token rewards",
    text: "Campaign rewards pay XP, or tokens a project escrows up front, when the campaign ends: first come, by rank, to everyone, or by a raffle anyone can verify.",
  },
  {
    icon: Sparkles,
    title: "Airdrops",
    text: "Tasks earn points while an airdrop runs; when it ends, its tokens are shared by points or rank, and members claim their share on chain from their own wallet.",
  },
];

const BROWSE = [
  { to: route("projects.index"), label: "Projects" },
  { to: route("campaigns.index"), label: "Campaigns" },
  { to: route("leaderboard"), label: "Leaderboard" },
];

export default function Welcome() {
  const root = useRootData();
  const appName = useAppName();
  return (
    <div className="flex min-h-svh flex-col">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between gap-2 p-4 sm:gap-4 sm:px-6">
        <Link to={route("welcome")} className="flex min-w-0 items-center gap-2 font-semibold">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand text-brand-foreground">
            <Sparkles className="size-4" />
          </span>
          <span className="truncate">{appName}</span>
        </Link>
        <div className="flex shrink-0 items-center gap-2">
          <AppearanceSwitch compact />
          {/* Smaller on a phone, where the name, the switch and the button share 375 px. */}
          {root?.user ? (
            <Button asChild className="max-sm:h-9 max-sm:px-3">
              <Link to={route("dashboard")}>Dashboard</Link>
            </Button>
          ) : (
            <SignInDialog trigger={<Button className="max-sm:h-9 max-sm:px-3">Sign in</Button>} />
          )}
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col justify-center gap-16 px-4 py-16 sm:px-6">
        <section className="grid max-w-2xl gap-6">
          <p className="w-fit rounded-full border px-3 py-1 text-xs font-medium text-muted-foreground">Campaigns · Crusades · Airdrops · Leaderboards</p>
          <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">Grow your community with quests and leaderboards.</h1>
          <p className="text-lg text-muted-foreground">
            {appName} is where Web3 projects run campaigns, crusades and airdrops of tasks, and where members complete them, earn XP and token rewards, and
            climb the leaderboards.
          </p>
          <div className="flex flex-wrap gap-3">
            {root?.user ? (
              <Button asChild size="lg" variant="brand">
                <Link to={route("dashboard")}>Go to your dashboard</Link>
              </Button>
            ) : (
              <SignInDialog
                trigger={
                  <Button size="lg" variant="brand">
                    Get started
                  </Button>
                }
              />
            )}
          </div>
          <nav aria-label="Browse" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <span className="text-muted-foreground">Look around first:</span>
            {BROWSE.map((link) => (
              <Link key={link.to} to={link.to} className="font-medium underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none">
                {link.label}
              </Link>
            ))}
          </nav>
        </section>
        <section className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="What you can do">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-xl border bg-card p-5">
              <Icon className="mb-3 size-5 text-muted-foreground" aria-hidden />
              <h2 className="font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          ))}
        </section>
      </main>
      <footer className="border-t py-6 text-center text-xs text-muted-foreground">© {appName}</footer>
    </div>
  );
}
