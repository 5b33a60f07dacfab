import { CheckCircle2, Clock3, Lock, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { PROVIDER_LABELS } from "~/modules/social/providers";
import type { FoundEvidence } from "~/modules/tasks/task-checks";
import type { OnchainState, TaskBlock } from "~/modules/tasks/task-page";
import { ChainEvidenceLine } from "./onchain-instructions";
import type { MemberState } from "./task-card";
import { LocalTime } from "~/components/campaigns/local-time";

const TONES = {
  success: "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-300",
  warning: "border-amber-500/30 bg-amber-500/10 text-amber-800 dark:text-amber-300",
  destructive: "border-destructive/30 bg-destructive/10 text-destructive",
  muted: "border-border bg-muted/50 text-foreground",
} as const;

function Notice({ tone, icon, title, children }: { tone: keyof typeof TONES; icon: ReactNode; title: ReactNode; children?: ReactNode }) {
  return (
    <div className={cn("flex gap-3 rounded-lg border p-4 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0", TONES[tone])} role="status">
      {icon}
      <div className="grid gap-1">
        <p className="font-medium">{title}</p>
        {children && <div className="opacity-90">{children}</div>}
      </div>
    </div>
  );
}

/** What a provider's API found for the member's completion: the post (a link) or the follow, and when. */
function FoundLine({ found }: { found: { evidence: FoundEvidence; provider: string } }) {
  const { evidence, provider } = found;
  return (
    <p className="mt-1 wrap-anywhere">
      Checked with {provider}: found{" "}
      {evidence.url ? (
        <a href={evidence.url} target="_blank" rel="noopener noreferrer" className="font-medium underline underline-offset-4">
          {evidence.url.replace(/^https?:\/\//, "")}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : evidence.label ? (
        <span className="font-medium">{evidence.label}</span>
      ) : (
        <span className="font-mono text-xs">{evidence.id}</span>
      )}
      {evidence.at && (
        <>
          {" "}
          (<LocalTime value={evidence.at} />)
        </>
      )}
      .
    </p>
  );
}

/**
 * The member's standing on the task: approved (or done for today, with what an API check found),
 * pending review, rejected with the reason (the team's, or why a re-check voided an approval) and,
 * when `retry`, that they can try again.
 */
export function MemberStateNotice({
  state,
  daily,
  xp,
  found = null,
  chain = null,
  retry = true,
}: {
  state: NonNullable<MemberState>;
  daily: boolean;
  xp: number;
  found?: { evidence: FoundEvidence; provider: string } | null;
  /** What the chain showed, for an on-chain task. */
  chain?: OnchainState["evidence"];
  retry?: boolean;
}) {
  if (state.status === "approved") {
    return daily ? (
      <Notice tone="success" icon={<CheckCircle2 aria-hidden />} title="Done for today">
        You earned {xp.toLocaleString("en")} XP today. Come back tomorrow: a new day starts at 00:00 UTC.
        {found && <FoundLine found={found} />}
        {chain && <ChainEvidenceLine evidence={chain} />}
      </Notice>
    ) : (
      <Notice tone="success" icon={<CheckCircle2 aria-hidden />} title="Completed">
        You earned {xp.toLocaleString("en")} XP for this task.
        {found && <FoundLine found={found} />}
        {chain && <ChainEvidenceLine evidence={chain} />}
      </Notice>
    );
  }
  if (state.status === "pending") {
    return (
      <Notice tone="warning" icon={<Clock3 aria-hidden />} title="Pending review">
        The team will look at your submission. The XP arrives when they approve it.
      </Notice>
    );
  }
  return (
    <Notice tone="destructive" icon={<XCircle aria-hidden />} title="Rejected">
      <p className="wrap-anywhere">{state.reason ? `“${state.reason}”` : "The team rejected your submission."}</p>
      {retry && <p className="mt-1">You can try again below.</p>}
    </Notice>
  );
}

/** Why the task cannot be done right now. */
export function BlockNotice({ block }: { block: TaskBlock }) {
  switch (block.kind) {
    case "draft":
      return (
        <Notice tone="muted" icon={<Lock aria-hidden />} title="Draft">
          Only the project&apos;s team sees this task. Publish it to let members do it.
        </Notice>
      );
    case "scheduled":
      return (
        <Notice
          tone="muted"
          icon={<Clock3 aria-hidden />}
          title={
            <>
              Opens <LocalTime value={block.at} />
            </>
          }
        />
      );
    case "ended":
      return <Notice tone="muted" icon={<Clock3 aria-hidden />} title="This task has ended" />;
    case "campaign":
    case "airdrop":
      return (
        <Notice
          tone="muted"
          icon={<Clock3 aria-hidden />}
          title={
            block.status === "ended"
              ? `Its ${block.kind} has ended`
              : block.status === "scheduled"
                ? `Its ${block.kind} has not started yet`
                : `Its ${block.kind} is not published yet`
          }
        />
      );
    case "full":
      return <Notice tone="muted" icon={<Lock aria-hidden />} title="Every place has been taken" />;
    case "not_set_up":
      return (
        <Notice tone="muted" icon={<Lock aria-hidden />} title={`${PROVIDER_LABELS[block.provider]} is not set up on this server`}>
          This task is checked with {PROVIDER_LABELS[block.provider]}, which this server&apos;s operators have not configured: it cannot be done here yet.
        </Notice>
      );
    case "locked":
      return (
        <Notice tone="muted" icon={<Lock aria-hidden />} title="Locked">
          Complete{" "}
          <Link to={route("tasks.show", { task: block.previous.id })} className="font-medium underline underline-offset-4">
            {block.previous.title}
          </Link>{" "}
          first: this crusade unlocks its tasks in order.
        </Notice>
      );
  }
}
