import { Check, Copy, ExternalLink } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { route } from "~/lib/routes";
import type { TaskBrief } from "~/modules/tasks/task-page";
import { OnchainInstructions } from "./onchain-instructions";

const linkClass = "font-medium underline underline-offset-4 wrap-anywhere";

function InviteLink({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success("Invite link copied");
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Copy did not work: select the link and copy it yourself.");
    }
  };
  return (
    <div className="grid gap-2">
      <label htmlFor="invite-link" className="text-sm font-medium">
        Your invite link
      </label>
      <div className="flex gap-2">
        <Input id="invite-link" value={link} readOnly onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
        <Button type="button" variant="outline" onClick={copy} aria-label="Copy invite link">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span className="hidden sm:inline">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
    </div>
  );
}

/** A link out of Questline, said as such. */
function Outbound({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={linkClass}>
      {children}
      <ExternalLink className="ml-1 inline size-3.5 align-[-2px]" aria-hidden />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** What the member is asked to do, by type: the link to visit, the question, the prompt, the token to hold… */
export function TaskInstructions({ brief, signedIn }: { brief: TaskBrief; signedIn: boolean }) {
  switch (brief.type) {
    case "visit_link":
      return (
        <p>
          Visit{" "}
          <a href={brief.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {brief.url}
            <ExternalLink className="ml-1 inline size-3.5 align-[-2px]" aria-hidden />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          , then come back and press Verify.
        </p>
      );
    case "quiz":
      return (
        <figure className="grid gap-1 rounded-lg border-l-4 border-brand bg-muted/50 px-4 py-3">
          <figcaption className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Question</figcaption>
          <p className="font-medium whitespace-pre-line wrap-anywhere">{brief.question}</p>
        </figure>
      );
    case "submit_text":
    case "submit_url":
    case "submit_image": {
      const fallback = {
        submit_text: "Write your answer below.",
        submit_url: "Share a link below.",
        submit_image: "Upload an image below.",
      }[brief.type];
      return <p className="whitespace-pre-line wrap-anywhere">{brief.prompt || fallback}</p>;
    }
    case "hold_token":
    case "nft_hold":
    case "contract_call":
    case "event_emitted":
    case "wallet_activity":
      return <OnchainInstructions brief={brief} />;
    case "wallet_connected":
      return (
        <p>
          Link a wallet to your account in{" "}
          <Link to={route("settings.profile")} className={linkClass}>
            Settings › Profile
          </Link>
          , then press Check.
        </p>
      );
    case "referral":
      return (
        <div className="grid gap-3">
          <p>
            Bring {brief.count === 1 ? "1 new member" : `${brief.count.toLocaleString("en")} new members`} to the platform: they sign up through your invite
            link. Then press Check.
          </p>
          {signedIn && brief.inviteLink && <InviteLink link={brief.inviteLink} />}
        </div>
      );
    case "x_follow":
      return (
        <p>
          Follow <Outbound href={brief.profileUrl}>@{brief.handle}</Outbound> on X with the account you connected, then press Check. X is asked whether your
          account follows it{brief.allowProof ? "; if X does not show it, you can send proof for the team to review" : ""}.
        </p>
      );
    case "x_like":
    case "x_repost":
      return (
        <p>
          {brief.type === "x_like" ? "Like" : "Repost"} <Outbound href={brief.postUrl}>this post</Outbound> on X with the account you connected, then press
          Check.{brief.type === "x_repost" ? " A quote post does not count." : ""}
        </p>
      );
    case "x_post":
    case "tiktok_post":
    case "instagram_post": {
      const where = { x_post: "Post on X", tiktok_post: "Post a video on TikTok", instagram_post: "Post on Instagram" }[brief.type];
      const part = { x_post: "the post", tiktok_post: "its description", instagram_post: "its caption" }[brief.type];
      return (
        <div className="grid gap-2">
          <p>
            {where} with the account you connected, with this in {part}, then press Check:
          </p>
          <figure className="rounded-lg border-l-4 border-brand bg-muted/50 px-4 py-3">
            <p className="font-medium whitespace-pre-line wrap-anywhere">{brief.phrase}</p>
          </figure>
          {brief.type === "x_post" && <p className="text-sm text-muted-foreground">Replies and reposts do not count.</p>}
          {brief.type === "instagram_post" && (
            <p className="text-sm text-muted-foreground">Instagram shows posts only of professional (business or creator) accounts.</p>
          )}
        </div>
      );
    }
    case "youtube_subscribe":
      return (
        <p>
          Subscribe to <Outbound href={brief.channelUrl}>{brief.channelName ?? `the YouTube channel ${brief.channelId}`}</Outbound>
          {brief.channelName && " on YouTube"} with the account you connected, then press Check.
        </p>
      );
    case "tiktok_follow":
    case "instagram_follow": {
      const label = brief.type === "tiktok_follow" ? "TikTok" : "Instagram";
      return (
        <p>
          Follow <Outbound href={brief.profileUrl}>@{brief.handle}</Outbound> on {label}, then send a screenshot of the account showing you follow it, or a
          link, for the team to review. {label} offers no way to check a follow, so the XP arrives when the team approves it.
        </p>
      );
    }
    case "discord_join":
    case "discord_role":
      return (
        <div className="grid gap-3">
          {brief.type === "discord_join" ? (
            <p>
              Join <strong className="wrap-anywhere">{brief.guildName}</strong> on Discord with the account you connected, then press Check. Discord is asked
              whether your account is in the server.
            </p>
          ) : (
            <p>
              Get the <strong className="wrap-anywhere">{brief.roleName}</strong> role in <strong className="wrap-anywhere">{brief.guildName}</strong> on
              Discord with the account you connected, then press Check. Discord is asked whether your account holds the role.
            </p>
          )}
          <div>
            <Button asChild variant="outline">
              <a href={brief.inviteUrl} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden />
                Join {brief.guildName}
                <span className="sr-only"> on Discord (opens in a new tab)</span>
              </a>
            </Button>
          </div>
        </div>
      );
    case "api_check":
      return (
        <div className="grid gap-2">
          <p className="whitespace-pre-line wrap-anywhere">{brief.instructions || "Do what the project asks on its own site or app, then press Check."}</p>
          <p className="text-sm text-muted-foreground">
            Check asks the project&apos;s own server whether you did it. It is sent your member id, your username and the addresses of the wallets you linked.
          </p>
        </div>
      );
    case "telegram_join":
      return (
        <div className="grid gap-2">
          <p>
            Join <Outbound href={brief.inviteUrl}>{brief.chatTitle}</Outbound> on Telegram with the account you connected, then press Check.
          </p>
          <p className="text-sm text-muted-foreground">Checked with Telegram: the project&apos;s bot asks Telegram whether your account is in it.</p>
        </div>
      );
  }
}
