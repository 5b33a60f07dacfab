import { useFetcher } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Textarea } from "~/components/ui/textarea";

export type QueuedAppeal = {
  id: string;
  name: string;
  identity: { wallets: string[]; socials: { provider: string; handle: string }[] };
  message: string;
  createdAt: Date | string;
  exclusion: { target: string; reason: string; createdAt: Date | string };
};

/** The project's pending appeals of its exclusions, oldest first, each with Uphold and Deny and the answer the member reads. */
export function AppealQueue({ appeals, viewerId }: { appeals: (QueuedAppeal & { userId: string })[]; viewerId: string }) {
  return (
    <Card role="region" aria-labelledby="appeals-title">
      <CardHeader>
        <CardTitle id="appeals-title" className="text-base">
          Appeals
        </CardTitle>
        <CardDescription>
          Members appealing an exclusion. Upheld, the exclusion is lifted and they are paid as if it never was (if the reward is not paid yet); denied, they may
          appeal again a day later. They read your answer either way.
        </CardDescription>
      </CardHeader>
      <CardContent className="pt-3">
        {appeals.length === 0 ? (
          <p className="text-sm text-muted-foreground">No appeal is waiting.</p>
        ) : (
          <ul className="grid divide-y" aria-label="Pending appeals">
            {appeals.map((a) => (
              <AppealItem key={a.id} appeal={a} own={a.userId === viewerId} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function AppealItem({ appeal: a, own }: { appeal: QueuedAppeal; own: boolean }) {
  const fetcher = useFetcher<{ errors?: Record<string, string> }>();
  const errors = fetcher.data?.errors;
  const deciding = fetcher.state !== "idle" ? fetcher.formData?.get("decision") : null;
  const id = `answer-${a.id}`;
  const known = [...a.identity.socials.map((s) => `${s.provider} @${s.handle}`), ...a.identity.wallets.slice(0, 2)];
  return (
    <li className="grid gap-2 py-4 text-sm first:pt-0 last:pb-0">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{a.name}</span>
        {known.length > 0 && <span className="min-w-0 font-mono text-xs break-all text-muted-foreground">{known.join(" · ")}</span>}
      </p>
      <p>
        <span className="text-muted-foreground">Excluded from {a.exclusion.target}: </span>
        {a.exclusion.reason}
      </p>
      <blockquote className="rounded-lg border-l-4 bg-muted/40 px-3 py-2">{a.message}</blockquote>
      <p className="text-xs text-muted-foreground">
        Appealed <LocalTime value={a.createdAt} />
      </p>
      {own ? (
        <p className="text-xs text-muted-foreground">Your own appeal: another member of the team answers it.</p>
      ) : (
        <fetcher.Form method="post" className="grid gap-2">
          <input type="hidden" name="appealId" value={a.id} />
          <Field id={id} label={`Answer to ${a.name}`} error={errors?.answer}>
            <Textarea {...fieldProps(id, errors?.answer)} name="answer" required minLength={3} maxLength={1000} rows={2} />
          </Field>
          <FormError message={errors?.form} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="decision" value="uphold" size="sm" pending={deciding === "uphold"} disabled={Boolean(deciding)}>
              Uphold
            </Button>
            <Button type="submit" name="decision" value="deny" variant="outline" size="sm" pending={deciding === "deny"} disabled={Boolean(deciding)}>
              Deny
            </Button>
          </div>
        </fetcher.Form>
      )}
    </li>
  );
}
