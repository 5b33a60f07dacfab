import { LogOut, UserMinus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { UserAvatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { ConfirmDialog } from "./confirm-dialog";
import { formatDate, ROLE_LABELS, type TeamRole } from "./roles";
import type { TeamActionData } from "./team-actions";

export type TeamMember = { userId: string; name: string; email: string | null; image: string | null; role: TeamRole; since: Date | string };

/** The team with roles. Owners change roles and remove members; everyone may leave. */
export function TeamList({ members, me, canManage }: { members: TeamMember[]; me: string; canManage: boolean }) {
  // Removing is answered here: the removed member's row is gone by the time the answer arrives.
  const remover = useFetcher<TeamActionData>();
  const removed = useRef("");
  const answer = remover.state === "idle" ? remover.data : undefined;
  useEffect(() => {
    if (answer?.ok) toast.success(`${removed.current} is removed from the team`);
    else if (answer) toast.error(answer.errors?.form ?? "That did not work.");
  }, [answer]);
  const remove = (member: TeamMember, display: string) => {
    removed.current = display;
    void remover.submit({ intent: "remove", id: member.userId }, { method: "post" });
  };
  const removing = remover.state !== "idle" ? String(remover.formData?.get("id")) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team</CardTitle>
        <CardDescription>
          {members.length} {members.length === 1 ? "member" : "members"}. A project always keeps at least one owner.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border">
          {members.map((member) => (
            <MemberRow
              key={member.userId}
              member={member}
              me={member.userId === me}
              canManage={canManage}
              onRemove={remove}
              removing={removing === member.userId}
            />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function MemberRow({
  member,
  me,
  canManage,
  onRemove,
  removing,
}: {
  member: TeamMember;
  me: boolean;
  canManage: boolean;
  onRemove: (member: TeamMember, display: string) => void;
  removing: boolean;
}) {
  const fetcher = useFetcher<TeamActionData>();
  const busy = fetcher.state !== "idle" ? String(fetcher.formData?.get("intent")) : null;
  const [role, setRole] = useState<TeamRole>(member.role);
  const display = member.name || member.email || "Member";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  // The select follows the saved role when the list reloads.
  const [savedRole, setSavedRole] = useState<TeamRole>(member.role);
  if (member.role !== savedRole) {
    setSavedRole(member.role);
    setRole(member.role);
  }
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(`${display}'s role is saved`);
    else toast.error(result.errors?.form ?? "That did not work.");
  }, [result, display]);

  const submit = (intent: string) => fetcher.submit({ intent, id: member.userId }, { method: "post" });
  const roleId = `role-${member.userId}`;
  return (
    <li className="grid gap-3 p-3 sm:flex sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <UserAvatar name={display} image={member.image} />
        <div className="min-w-0">
          <p className="truncate font-medium">
            {display}
            {me && <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span>}
          </p>
          <p className="truncate text-xs text-muted-foreground">
            {member.email && member.email !== display ? `${member.email} · ` : ""}since {formatDate(member.since)}
          </p>
          {result && !result.ok && (
            <p className="text-xs text-destructive" role="alert">
              {result.errors?.form}
            </p>
          )}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {canManage ? (
          <fetcher.Form method="post" className="flex items-center gap-2">
            <input type="hidden" name="id" value={member.userId} />
            <label htmlFor={roleId} className="sr-only">
              Role of {display}
            </label>
            <Select id={roleId} name="role" value={role} onChange={(e) => setRole(e.target.value as TeamRole)} className="w-32">
              {(Object.keys(ROLE_LABELS) as TeamRole[]).map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </Select>
            <Button
              type="submit"
              name="intent"
              value="role"
              variant="outline"
              size="sm"
              disabled={role === member.role}
              pending={busy === "role"}
              aria-label={`Save the role of ${display}`}
            >
              Save
            </Button>
          </fetcher.Form>
        ) : (
          <Badge variant={member.role === "owner" ? "brand" : "secondary"}>{ROLE_LABELS[member.role]}</Badge>
        )}
        {me ? (
          <ConfirmDialog
            trigger={
              <Button variant="ghost" size="sm" pending={busy === "leave"}>
                <LogOut aria-hidden /> Leave
              </Button>
            }
            title="Leave the team?"
            description="You lose access to the project's drafts and management. Someone on the team can invite you again."
            confirm={(close) => (
              <Button
                variant="destructive"
                onClick={() => {
                  void submit("leave");
                  close();
                }}
              >
                Leave the team
              </Button>
            )}
          />
        ) : (
          canManage && (
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" pending={removing} aria-label={`Remove ${display}`}>
                  <UserMinus aria-hidden /> Remove
                </Button>
              }
              title={`Remove ${display}?`}
              description="They lose access to the project's drafts and management. You can invite them again."
              confirm={(close) => (
                <Button
                  variant="destructive"
                  onClick={() => {
                    onRemove(member, display);
                    close();
                  }}
                >
                  Remove
                </Button>
              )}
            />
          )
        )}
      </div>
    </li>
  );
}
