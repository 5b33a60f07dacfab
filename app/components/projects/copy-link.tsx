import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";

/** A read-only link with a Copy button. */
export function CopyLink({ label, url }: { label: string; url: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success("Link copied");
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Copying is not allowed here: select the link and copy it.");
    }
  };
  return (
    <div className="flex gap-2">
      <Input readOnly value={url} aria-label={label} onFocus={(event) => event.currentTarget.select()} className="font-mono text-xs" />
      <Button type="button" variant="outline" onClick={copy}>
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? "Copied" : "Copy"}
      </Button>
    </div>
  );
}
