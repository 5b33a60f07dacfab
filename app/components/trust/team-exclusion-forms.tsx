import { Ban, Undo2 } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { route } from "~/lib/routes";
import { ConfirmDialog } from "~/components/projects/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { targetValue, type TeamTrustActionData } from "~/modules/trust/team-trust.schema";

export type TargetOption = { scope: "project" | "pool" | "airdrop"; scopeId: string; label: string };

/** The reason box of a trust form: required, 3 to 500 characters, read by the member. */
function ReasonField({ id, label, hint, error }: { id: string; label: string; hint: string; error?: string }) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Textarea
        id={id}
        name="reason"
        required
        minLength={3}
        maxLength={500}
        rows={2}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
    </Field>
  );
}

/** A fetcher for one trust form: its refusal, its pending state, and the form emptied and closed once done. */
function useTrustForm() {
  const fetcher = useFetcher<TeamTrustActionData>();
  const form = useRef<HTMLFormElement>(null);
  const done = fetcher.state === "idle" && fetcher.data?.ok === true;
  useEffect(() => {
    if (!done || !form.current) return;
    form.current.reset();
    form.current.closest("details")?.removeAttribute("open");
  }, [done, fetcher.data]);
  const errors = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? (fetcher.data.errors ?? {}) : {};
  return { fetcher, form, errors, pending: fetcher.state !== "idle" };
}

/**
 * Exclude one participant, or every participant of a cluster here (after a confirmation), from
 * the project, one of its open pools or one of its airdrops not frozen yet, with the reason the
 * member reads. Folded until opened.
 */
export function ExcludeForm({
  projectSlug,
  targets,
  subject,
}: {
  /** The project whose Trust page's action takes the form (the cluster view posts there too). */
  projectSlug: string;
  targets: TargetOption[];
  subject: { kind: "member"; userId: string; name: string } | { kind: "cluster"; clusterId: string; count: number };
}) {
  const { fetcher, form, errors, pending } = useTrustForm();
  const id = useId();
  const summary = subject.kind === "member" ? "Exclude…" : `Exclude all ${subject.count}…`;
  const label = subject.kind === "member" ? `Exclude ${subject.name}` : `Exclude all ${subject.count} participants of this cluster`;
  return (
    <details className="group rounded-lg border bg-card">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
        <Ban className="size-4 text-destructive" aria-hidden /> {summary}
      </summary>
      <fetcher.Form
        method="post"
        action={route("projects.trust", { project: projectSlug })}
        ref={form}
        className="grid gap-3 border-t p-3"
        aria-label={label}
        noValidate
      >
        <input type="hidden" name="intent" value="exclude" />
        {subject.kind === "member" ? (
          <input type="hidden" name="userId" value={subject.userId} />
        ) : (
          <input type="hidden" name="clusterId" value={subject.clusterId} />
        )}
        <Field id={`${id}-target`} label="Exclude from" error={errors.target}>
          <Select id={`${id}-target`} name="target" defaultValue="project" aria-invalid={errors.target ? true : undefined}>
            {targets.map((t) => (
              <option key={targetValue(t)} value={targetValue(t)}>
                {t.label}
              </option>
            ))}
          </Select>
        </Field>
        <ReasonField id={`${id}-reason`} label="Reason" hint="The member reads it, and may appeal. 3 to 500 characters." error={errors.reason} />
        <FormError message={errors.form} />
        <div>
          {subject.kind === "member" ? (
            <Button type="submit" variant="destructive" pending={pending}>
              <Ban aria-hidden /> Exclude
            </Button>
          ) : (
            <ConfirmDialog
              trigger={
                <Button type="button" variant="destructive" pending={pending}>
                  <Ban aria-hidden /> Exclude all {subject.count}
                </Button>
              }
              title={`Exclude all ${subject.count} participants of this cluster?`}
              description="Each of them is kept out of what you chose, reads your reason and may appeal. You can lift each exclusion later; it is written to the audit log."
              confirm={(close) => (
                <Button
                  type="button"
                  variant="destructive"
                  onClick={() => {
                    if (form.current) void fetcher.submit(form.current);
                    close();
                  }}
                >
                  Exclude all {subject.count}
                </Button>
              )}
            />
          )}
        </div>
      </fetcher.Form>
    </details>
  );
}

/** Lift one live exclusion, with the reason written to the audit log. */
export function LiftForm({ projectSlug, exclusionId, target }: { projectSlug: string; exclusionId: string; target: string }) {
  const { fetcher, form, errors, pending } = useTrustForm();
  const id = useId();
  return (
    <details className="rounded-md">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
        <Undo2 className="size-3.5" aria-hidden /> Lift
      </summary>
      <fetcher.Form
        method="post"
        action={route("projects.trust", { project: projectSlug })}
        ref={form}
        className="grid gap-3 pt-2"
        aria-label={`Lift the exclusion from ${target}`}
        noValidate
      >
        <input type="hidden" name="intent" value="lift" />
        <input type="hidden" name="exclusionId" value={exclusionId} />
        <ReasonField
          id={`${id}-reason`}
          label="Why lift it"
          hint="Written to the audit log. 3 to 500 characters."
          error={errors.reason ?? errors.exclusionId}
        />
        <FormError message={errors.form} />
        <div>
          <Button type="submit" variant="outline" size="sm" pending={pending}>
            <Undo2 aria-hidden /> Lift the exclusion
          </Button>
        </div>
      </fetcher.Form>
    </details>
  );
}
