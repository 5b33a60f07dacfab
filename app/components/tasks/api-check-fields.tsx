import { Check, Copy, KeyRound, RefreshCw, Send } from "lucide-react";
import { useEffect, useState, type MouseEvent } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";

/** Where the task form's "Try it" and the signing secret are asked (owners and admins only; null for the others). */
export type ApiCheckTools = { tryAction: string; secretAction: string; taskId: string | null };

/** What "Try it" answers (api-check-try.ts): the reply of the project's server, read, or why nothing was sent. */
type TryData =
  | {
      reply:
        | { ok: true; status: number; durationMs: number; answer: { done: boolean; reason?: string } }
        | { ok: false; problem: string; message: string; status: number | null; durationMs: number; body: string | null };
    }
  | { errors: Record<string, string> };
type SecretData = { secret: string; rotated: boolean } | { errors: Record<string, string> };

const SAMPLE = `{ "type": "api_check", "task": { "id", "title" }, "member": { "id", "username", "wallets": [{ "address", "chainId" }] }, "timestamp" }`;

/** An api_check task's settings: the project's server's URL and what members do; for owners and admins, Try it and the signing secret. */
export function ApiCheckFields({ values, errors, tools }: { values: Record<string, string>; errors: Record<string, string>; tools: ApiCheckTools | null }) {
  const url = "config.url";
  const instructions = "config.instructions";
  return (
    <>
      <Field
        id={url}
        label="Your server's URL"
        hint="When a member presses Check, we POST a signed JSON request here; your server answers within 5 seconds."
        error={errors[url]}
      >
        <Input
          {...fieldProps(url, errors[url])}
          type="url"
          inputMode="url"
          placeholder="https://api.example.com/questline/check"
          defaultValue={values[url] ?? ""}
        />
      </Field>
      <Field id={instructions} label="Instructions" hint="Optional. What members do before they press Check." error={errors[instructions]}>
        <Textarea {...fieldProps(instructions, errors[instructions])} defaultValue={values[instructions] ?? ""} rows={3} />
      </Field>
      <div className="grid gap-2 rounded-lg border bg-muted/40 p-4 text-sm">
        <p className="font-medium">What your server receives and answers</p>
        <code className="block overflow-x-auto rounded bg-background p-2 font-mono text-xs whitespace-pre-wrap wrap-anywhere">{SAMPLE}</code>
        <p className="text-muted-foreground">
          It answers <code className="font-mono text-xs">{'{ "done": true }'}</code> or{" "}
          <code className="font-mono text-xs">{'{ "done": false, "reason": "…" }'}</code> (the reason is shown to the member). Any other answer, an error status
          or no answer within 5 seconds, and the member is asked to try again; nothing is recorded.
        </p>
      </div>
      {tools && <TryIt tools={tools} />}
      {tools && <SigningSecret tools={tools} />}
    </>
  );
}

/** Sends a test request (the acting team member, `test: true`) to the URL typed in the form, and shows what came back. */
function TryIt({ tools }: { tools: ApiCheckTools }) {
  const fetcher = useFetcher<TryData>();
  const send = (event: MouseEvent<HTMLButtonElement>) => {
    const form = event.currentTarget.form;
    const typed = (name: string) => {
      const input = form?.elements.namedItem(name);
      return input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement ? input.value : "";
    };
    fetcher.submit({ url: typed("config.url"), title: typed("title"), taskId: tools.taskId ?? "" }, { method: "post", action: tools.tryAction });
  };
  const data = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" onClick={send} pending={fetcher.state !== "idle"}>
          <Send aria-hidden /> Try it
        </Button>
        <p className="text-xs text-muted-foreground">Sends a test request about you (with your wallets), marked &quot;test&quot;: true. Nothing is recorded.</p>
      </div>
      <div aria-live="polite">{data && <TryResult data={data} />}</div>
    </div>
  );
}

function TryResult({ data }: { data: TryData }) {
  if ("errors" in data) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {Object.values(data.errors)[0]}
      </p>
    );
  }
  const { reply } = data;
  const timing = `${reply.status === null ? "No answer" : `HTTP ${reply.status}`} · ${reply.durationMs.toLocaleString("en")} ms`;
  return (
    <div className={`grid gap-1 rounded-lg border p-3 text-sm ${reply.ok ? "bg-background" : "border-destructive/40 bg-destructive/5"}`}>
      <p className="font-mono text-xs text-muted-foreground">{timing}</p>
      {reply.ok ? (
        <p>
          <span className="font-medium">done: {String(reply.answer.done)}</span>
          {reply.answer.reason && <span className="text-muted-foreground"> · reason: {reply.answer.reason}</span>}
          <span className="block text-xs text-muted-foreground">
            {reply.answer.done ? "A member would be approved." : "A member would read the reason and could check again."}
          </span>
        </p>
      ) : (
        <>
          <p className="text-destructive">{reply.message}</p>
          {reply.body && <pre className="max-h-32 overflow-auto font-mono text-xs whitespace-pre-wrap wrap-anywhere">{reply.body}</pre>}
        </>
      )}
    </div>
  );
}

/** The project's signing secret: revealed only on request, rotated after a second click. */
function SigningSecret({ tools }: { tools: ApiCheckTools }) {
  const fetcher = useFetcher<SecretData>();
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const data = fetcher.data;
  const secret = data && "secret" in data ? data.secret : null;
  const ask = (intent: "reveal" | "rotate") => {
    setConfirming(false);
    fetcher.submit({ intent }, { method: "post", action: tools.secretAction });
  };
  useEffect(() => {
    if (fetcher.state === "idle" && data && "secret" in data && data.rotated)
      toast.success("Signing secret rotated", { description: "Give your server the new one." });
  }, [fetcher.state, data]);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Copy did not work: select the secret and copy it yourself.");
    }
  };
  return (
    <div className="grid gap-3 border-t pt-4">
      <div className="grid gap-1">
        <p className="text-sm font-medium">Signing secret</p>
        <p className="text-xs text-muted-foreground">
          One per project. Your server checks every request with it, as Standard Webhooks says: with the standardwebhooks package,{" "}
          <code className="font-mono">new Webhook(secret).verify(body, headers)</code> on the body as received.
        </p>
      </div>
      {secret && (
        <div className="flex gap-2">
          <Input aria-label="Signing secret" value={secret} readOnly onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
          <Button type="button" variant="outline" onClick={copy} aria-label="Copy signing secret">
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          </Button>
        </div>
      )}
      {data && "errors" in data && (
        <p role="alert" className="text-sm text-destructive">
          {Object.values(data.errors)[0]}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {!secret && (
          <Button type="button" variant="outline" onClick={() => ask("reveal")} pending={fetcher.state !== "idle" && !confirming}>
            <KeyRound aria-hidden /> Reveal
          </Button>
        )}
        {confirming ? (
          <>
            <Button type="button" variant="destructive" onClick={() => ask("rotate")}>
              <RefreshCw aria-hidden /> Rotate now: the old secret stops working
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button type="button" variant="outline" onClick={() => setConfirming(true)} pending={fetcher.state !== "idle" && secret !== null}>
            <RefreshCw aria-hidden /> Rotate
          </Button>
        )}
      </div>
    </div>
  );
}
