import { UserPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { ConfirmDialog } from "./confirm-dialog";
import { CopyLink } from "./copy-link";
import { leastPowerful, ROLE_DESCRIPTIONS, ROLE_LABELS, type TeamRole } from "./roles";
import type { TeamActionData } from "./team-actions";

/** Invite by e-mail (mailed a link) or by wallet address (sees it in their Invitations), with a role the inviter may grant. */
export function InviteForm({ roles }: { roles: TeamRole[] }) {
  const fetcher = useFetcher<TeamActionData>();
  const result = fetcher.state === "idle" && fetcher.data?.intent === "invite" ? fetcher.data : undefined;
  const form = useRef<HTMLFormElement>(null);
  // The least powerful role the inviter may grant; kept after each invite, so the form always
  // shows the role it will send.
  const [role, setRole] = useState<TeamRole>(leastPowerful(roles));
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const submitting = fetcher.state !== "idle";

  useEffect(() => {
    if (!result?.ok) return;
    // Only the address empties: the role stays as chosen (a form reset would show the first option
    // while the role about to be sent stayed the same).
    const target = form.current?.elements.namedItem("target");
    if (target instanceof HTMLInputElement) target.value = "";
    if (result.mailed) toast.success(`Invitation e-mailed to ${result.to}`);
    else if (result.mailed === false) toast.error("The invitation is saved but the e-mail could not be sent: share the link below.");
    else toast.success("Invitation created: the wallet's owner finds it under Invitations once the wallet is linked.");
  }, [result]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite someone</CardTitle>
        <CardDescription>By e-mail, or by the wallet address they sign in with. Invitations are valid for 7 days.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <fetcher.Form method="post" className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start" ref={form} noValidate>
          <input type="hidden" name="intent" value="invite" />
          <Field id="target" label="E-mail or wallet address" error={errors.target}>
            <Input
              {...fieldProps("target", errors.target)}
              defaultValue={result && !result.ok ? result.values?.target : ""}
              placeholder="name@example.com or 0x…"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={254}
            />
          </Field>
          <Field id="role" label="Role" error={errors.role}>
            <Select {...fieldProps("role", errors.role)} value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </Select>
          </Field>
          {role === "owner" ? (
            <ConfirmDialog
              trigger={
                <Button type="button" variant="brand" className="sm:mt-[1.375rem]" pending={submitting}>
                  <UserPlus aria-hidden /> Invite
                </Button>
              }
              title="Invite as an owner?"
              description="An owner manages everything, including the team and its roles: they can change your role or remove you. Invite as owner only someone you trust with the whole project."
              confirm={(close) => (
                <Button
                  type="button"
                  variant="destructive"
                  onClick={() => {
                    if (form.current) void fetcher.submit(form.current);
                    close();
                  }}
                >
                  Invite as owner
                </Button>
              )}
            />
          ) : (
            <Button type="submit" variant="brand" className="sm:mt-[1.375rem]" pending={submitting}>
              <UserPlus aria-hidden /> Invite
            </Button>
          )}
        </fetcher.Form>
        <p className="text-xs text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</p>
        {result?.ok && result.url && <CopyLink label="Invitation link" url={result.url} />}
      </CardContent>
    </Card>
  );
}
