import { ExternalLink, ImageIcon } from "lucide-react";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";

const isWebUrl = (v: unknown): v is string => typeof v === "string" && /^https?:\/\//i.test(v);
const isImageUrl = (v: unknown): v is string => typeof v === "string" && (v.startsWith("/uploads/") || /^https:\/\//i.test(v));
const field = (submission: unknown, key: string): unknown =>
  typeof submission === "object" && submission !== null ? (submission as Record<string, unknown>)[key] : undefined;

/** What the member submitted, shown inline: an image preview, a link, a text, an answer… */
export function SubmissionContent({ submission, member }: { submission: unknown; member: string }) {
  const imageUrl = field(submission, "imageUrl");
  const url = field(submission, "url");
  const text = field(submission, "text");
  const answer = field(submission, "answer");
  if (isImageUrl(imageUrl) && isWebUrl(url)) {
    // A follow's proof may carry both a screenshot and a link.
    return (
      <div className="grid justify-items-start gap-2">
        <SubmissionContent submission={{ imageUrl }} member={member} />
        <SubmissionContent submission={{ url }} member={member} />
      </div>
    );
  }
  if (isImageUrl(imageUrl)) {
    return (
      <Dialog>
        <DialogTrigger className="group relative block size-16 overflow-hidden rounded-md border bg-muted outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <img src={imageUrl} alt={`Image submitted by ${member}`} className="size-full object-cover" loading="lazy" />
          <span className="absolute inset-0 grid place-items-center bg-black/40 text-white opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100">
            <ImageIcon className="size-4" aria-hidden />
            <span className="sr-only">Open full size</span>
          </span>
        </DialogTrigger>
        <DialogContent className="max-w-3xl">
          <DialogTitle>Image submitted by {member}</DialogTitle>
          <DialogDescription asChild>
            <a href={imageUrl} target="_blank" rel="noopener noreferrer" className="inline-flex w-fit items-center gap-1 underline-offset-4 hover:underline">
              Open in a new tab <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </DialogDescription>
          <img src={imageUrl} alt={`Image submitted by ${member}, full size`} className="max-h-[75vh] w-full rounded-md object-contain" />
        </DialogContent>
      </Dialog>
    );
  }
  if (isWebUrl(url)) {
    return (
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer nofollow ugc"
        className="inline-flex max-w-xs items-center gap-1 break-all text-sm text-foreground underline underline-offset-4"
      >
        {url}
        <ExternalLink className="size-3.5 shrink-0" aria-hidden />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    );
  }
  if (typeof text === "string") {
    return <p className="line-clamp-6 max-w-sm text-sm whitespace-pre-line wrap-anywhere">{text}</p>;
  }
  if (typeof answer === "string") {
    return (
      <p className="text-sm">
        <span className="text-muted-foreground">Answer: </span>
        <span className="wrap-anywhere">{answer}</span>
      </p>
    );
  }
  if (typeof field(submission, "visitedAt") === "string") return <p className="text-sm text-muted-foreground">Visited the link</p>;
  if (typeof field(submission, "referrals") === "number")
    return <p className="text-sm text-muted-foreground">{String(field(submission, "referrals"))} members referred</p>;
  const socialAccount = field(submission, "account");
  if (typeof socialAccount === "string" && socialAccount)
    return <p className="text-sm text-muted-foreground wrap-anywhere">Checked with the account @{socialAccount}</p>;
  const wallet = field(submission, "wallet");
  if (typeof wallet === "string") return <p className="font-mono text-xs break-all text-muted-foreground">Wallet {wallet}</p>;
  return <p className="text-sm text-muted-foreground">Checked automatically</p>;
}
