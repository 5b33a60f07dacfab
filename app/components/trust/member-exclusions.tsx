import { Link, useFetcher } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Textarea } from "~/components/ui/textarea";
import { route } from "~/lib/routes";
import type { AppealStatus, ExclusionScope } from "~/modules/trust/trust-types";

export type OwnExclusion = {
  id: string;
  project: { name: string; slug: string };
  scope: ExclusionScope;
  target: string;
  reason: string;
  createdAt: Date | string;
  liftedAt: Date | string | null;
  liftReason: string | null;
  appeal: { status: AppealStatus; message: string; answer: string | null; createdAt: Date | string; decidedAt: Date | string | null } | null;
  appealBlocked: string | null;
};

const APPEAL_BADGES: Record<AppealStatus, { label: string; variant: "warning" | "success" | "destructive" }> = {
  pending: { label: "Appeal pending", variant: "warning" },
  upheld: { label: "Appeal upheld", variant: "success" },
  denied: { label: "Appeal denied", variant: "destructive" },
};

/** The member's own exclusions: what each keeps them out of and why, its appeal and the team's answer, and the Appeal form. */
export function MemberExclusions({ exclusions }: { exclusions: OwnExclusion[] }) {
  return (
    <Card role="region" aria-labelledby="exclusions-title">
      <CardHeader>
        <CardTitle id="exclusions-title">Exclusions</CardTitle>
        <CardDescription>
          A project&apos;s team can keep a member out of one of its rewards, one of its airdrops or all of them, and must say why. You can appeal: the team
          reads it in its review queue, and if it agrees before the reward is paid, you are paid as if you had never been excluded.
        </CardDescription>
      </CardHeader>
      <CardContent className="pt-3">
        {exclusions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No project has excluded you from its rewards.</p>
        ) : (
          <ul className="grid divide-y" aria-label="Your exclusions">
            {exclusions.map((e) => (
              <ExclusionItem key={e.id} exclusion={e} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ExclusionItem({ exclusion: e }: { exclusion: OwnExclusion }) {
  const badge = e.appeal ? APPEAL_BADGES[e.appeal.status] : null;
  return (
    <li className="grid gap-2 py-4 text-sm first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={route("projects.show", { project: e.project.slug })} className="font-medium hover:underline">
          {e.project.name}
        </Link>
        <span className="text-muted-foreground">· {e.target}</span>
        {e.liftedAt ? <Badge variant="success">Lifted</Badge> : <Badge variant="destructive">Excluded</Badge>}
        {badge && <Badge variant={badge.variant}>{badge.label}</Badge>}
      </div>
      <p>
        <span className="text-muted-foreground">The team&apos;s reason: </span>
        {e.reason}
      </p>
      <p className="text-xs text-muted-foreground">
        Since <LocalTime value={e.createdAt} />
        {e.liftedAt && (
          <>
            {" "}
            · lifted <LocalTime value={e.liftedAt} />
            {e.liftReason ? `: ${e.liftReason}` : ""}
          </>
        )}
      </p>
      {e.appeal && (
        <div className="grid gap-1 rounded-lg border p-3">
          <p>
            <span className="text-muted-foreground">Your appeal: </span>
            {e.appeal.message}
          </p>
          {e.appeal.answer && (
            <p>
              <span className="text-muted-foreground">The team&apos;s answer: </span>
              {e.appeal.answer}
            </p>
          )}
        </div>
      )}
      {e.appealBlocked ? (
        !e.liftedAt && <p className="text-xs text-muted-foreground">{e.appealBlocked}</p>
      ) : (
        <AppealForm exclusionId={e.id} target={e.target} />
      )}
    </li>
  );
}

function AppealForm({ exclusionId, target }: { exclusionId: string; target: string }) {
  const fetcher = useFetcher<{ errors?: Record<string, string> }>();
  const errors = fetcher.data?.errors;
  const id = `appeal-${exclusionId}`;
  return (
    <fetcher.Form method="post" className="grid gap-2">
      <input type="hidden" name="exclusionId" value={exclusionId} />
      <Field id={id} label={`Appeal your exclusion from ${target}`} hint="Tell the team why it is wrong: 10 to 1,000 characters." error={errors?.message}>
        <Textarea {...fieldProps(id, errors?.message)} name="message" minLength={10} maxLength={1000} required rows={3} />
      </Field>
      <FormError message={errors?.form} />
      <Button type="submit" variant="outline" size="sm" className="justify-self-start" pending={fetcher.state !== "idle"}>
        Send appeal
      </Button>
    </fetcher.Form>
  );
}
