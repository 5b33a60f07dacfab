import { Inbox } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { EmptyState } from "~/components/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { cn } from "~/lib/utils";
import { PROVIDER_LABELS, type SocialProvider } from "~/modules/social/providers";
import { shortAddress } from "~/wallet/chains";
import { LocalTime } from "./local-time";
import { ApproveButton, RejectButton } from "./review-actions";
import { SubmissionContent } from "./submission-content";

export type SubmissionRow = {
  id: string;
  status: "pending" | "approved" | "rejected";
  submission: unknown;
  reason: string | null;
  createdAt: Date | string;
  reviewedAt: Date | string | null;
  task: { id: string; title: string; xp: number };
  /** As the team may see them: the e-mail address only where the member shared it with the project. */
  member: { id: string; name: string; email: string | null; wallets: string[]; socials: { provider: string; handle: string }[] };
  reviewer: string | null;
};

const handleOf = (s: { provider: string; handle: string }) => (s.provider === "youtube" ? s.handle : `@${s.handle}`);
const who = (m: SubmissionRow["member"]) => m.name || m.email || shortAddress(m.wallets[0]) || (m.socials[0] ? handleOf(m.socials[0]) : "a member");
const CHECKBOX = "size-4 shrink-0 accent-lime-600";

function SelectAll({ checked, partly, onChange, label }: { checked: boolean; partly: boolean; onChange: (all: boolean) => void; label?: string }) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = partly;
  }, [partly]);
  const input = (
    <input
      ref={box}
      type="checkbox"
      className={CHECKBOX}
      aria-label={label ? undefined : "Select all on this page"}
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
  return label ? (
    <label className="flex items-center gap-2">
      {input} {label}
    </label>
  ) : (
    input
  );
}

function RowCheckbox({ row, checked, onChange }: { row: SubmissionRow; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <input
      type="checkbox"
      className={CHECKBOX}
      aria-label={`Select the submission of ${who(row.member)} for ${row.task.title}`}
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

function MemberInfo({ row }: { row: SubmissionRow }) {
  return (
    <div className="grid min-w-0">
      <span className="truncate font-medium">{row.member.name || "—"}</span>
      {row.member.email && (
        <span className="truncate text-xs text-muted-foreground" title={row.member.email}>
          {row.member.email}
        </span>
      )}
      {row.member.wallets.map((address) => (
        <span key={address} className="truncate font-mono text-xs text-muted-foreground" title={address}>
          {shortAddress(address)}
        </span>
      ))}
      {row.member.socials.length > 0 && (
        <span className="truncate text-xs text-muted-foreground">
          {row.member.socials.map((s) => `${PROVIDER_LABELS[s.provider as SocialProvider] ?? s.provider} ${handleOf(s)}`).join(" · ")}
        </span>
      )}
    </div>
  );
}

function TaskInfo({ row }: { row: SubmissionRow }) {
  return (
    <div className="grid">
      <span className="wrap-anywhere">{row.task.title}</span>
      <span className="text-xs text-muted-foreground tabular-nums">{row.task.xp.toLocaleString("en")} XP</span>
    </div>
  );
}

function DecisionInfo({ row }: { row: SubmissionRow }) {
  if (row.status === "pending") return null;
  return (
    <div className="grid gap-0.5 text-xs">
      <span className={row.status === "approved" ? "font-medium text-green-700 dark:text-green-400" : "font-medium text-destructive"}>
        {row.status === "approved" ? "Approved" : "Rejected"}
        {row.reviewer ? ` by ${row.reviewer}` : ""}
      </span>
      {row.reviewedAt && (
        <span className="text-muted-foreground">
          <LocalTime value={row.reviewedAt} />
        </span>
      )}
      {row.reason && <p className="mt-0.5 wrap-anywhere">“{row.reason}”</p>}
    </div>
  );
}

/** Said on the reviewer's own row instead of its buttons. */
function OwnSubmission() {
  return <p className="max-w-48 text-xs text-muted-foreground md:text-right">Your own submission: another member of the team reviews it.</p>;
}

function RowActions({ row, own }: { row: SubmissionRow; own: boolean }) {
  if (own) return row.status === "approved" ? null : <OwnSubmission />;
  if (row.status === "approved") {
    return (
      <div className="flex justify-end">
        <RejectButton
          voids
          ids={[row.id]}
          label={`Void the approval of ${who(row.member)}`}
          description={`For “${row.task.title}”: its XP is taken back, with any Discord role it earned, and ${who(row.member)} sees the reason.`}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-wrap justify-end gap-2 md:flex-nowrap">
      <ApproveButton ids={[row.id]} label={`Approve the submission of ${who(row.member)}`} />
      {row.status === "pending" && (
        <RejectButton
          ids={[row.id]}
          label={`Reject the submission of ${who(row.member)}`}
          description={`For “${row.task.title}”. ${who(row.member)} sees the reason and can try again.`}
        />
      )}
    </div>
  );
}

/**
 * One status's submissions: who, which task, what they sent, when, and the decision; pending
 * ones can be approved or rejected one by one or in bulk, rejected ones approved after all,
 * approved ones voided one by one (their XP taken back). A
 * table on wide screens, cards on phones. The viewer's own submissions cannot be picked: nobody
 * decides on their own.
 */
export function SubmissionsTable({
  status,
  rows,
  filtered,
  viewerId,
}: {
  status: SubmissionRow["status"];
  rows: SubmissionRow[];
  filtered: boolean;
  viewerId: string;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  const isOwn = (row: SubmissionRow) => row.member.id === viewerId;
  const pickable = rows.filter((r) => !isOwn(r));
  const selected = picked.filter((id) => pickable.some((r) => r.id === id));
  const selectable = status !== "approved";
  const clear = () => setPicked([]);
  const toggle = (id: string) => (checked: boolean) => setPicked(checked ? [...selected, id] : selected.filter((s) => s !== id));
  const selectAll = {
    checked: pickable.length > 0 && selected.length === pickable.length,
    partly: selected.length > 0 && selected.length < pickable.length,
    onChange: (all: boolean) => setPicked(all ? pickable.map((r) => r.id) : []),
  };

  if (rows.length === 0) {
    return (
      <EmptyState icon={Inbox} title={filtered ? "No submissions match" : `No ${status} submissions`}>
        {filtered ? "Try another search or task." : status === "pending" ? "Everything is reviewed. New submissions appear here." : undefined}
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-3">
      {selectable && (
        <div className="flex min-h-12 flex-wrap items-center gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm" aria-live="polite">
          <span className="md:hidden">
            <SelectAll {...selectAll} label="All" />
          </span>
          <span className="mr-auto text-muted-foreground">
            {selected.length > 0 ? `${selected.length} selected` : "Select submissions to review several at once."}
          </span>
          {/* Always mounted (disabled with nothing selected): the rows they decide on leave the table
              when the page reloads, and the outcome's notice must still be told. */}
          <ApproveButton ids={selected} label={`Approve ${selected.length} selected`} onDone={clear} />
          {status === "pending" && (
            <RejectButton
              ids={selected}
              label={`Reject ${selected.length} selected`}
              description="One reason for all of them; each member sees it."
              onDone={clear}
            />
          )}
        </div>
      )}

      <div className="hidden md:block">
        <Table>
          <TableHeader>
            <TableRow>
              {selectable && (
                <TableHead className="w-10">
                  <SelectAll {...selectAll} />
                </TableHead>
              )}
              <TableHead>Member</TableHead>
              <TableHead>Task</TableHead>
              <TableHead>Submission</TableHead>
              <TableHead>Submitted</TableHead>
              {status !== "pending" && <TableHead>Decision</TableHead>}
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} id={`submission-${row.id}`} data-state={selected.includes(row.id) ? "selected" : undefined} className="align-top">
                {selectable && <TableCell>{!isOwn(row) && <RowCheckbox row={row} checked={selected.includes(row.id)} onChange={toggle(row.id)} />}</TableCell>}
                <TableCell className="max-w-56 min-w-40">
                  <MemberInfo row={row} />
                </TableCell>
                <TableCell className="min-w-40">
                  <TaskInfo row={row} />
                </TableCell>
                <TableCell className="min-w-48">
                  <SubmissionContent submission={row.submission} member={who(row.member)} />
                </TableCell>
                <TableCell className="text-xs text-muted-foreground">
                  <LocalTime value={row.createdAt} />
                </TableCell>
                {status !== "pending" && (
                  <TableCell className="min-w-44">
                    <DecisionInfo row={row} />
                  </TableCell>
                )}
                <TableCell>
                  <RowActions row={row} own={isOwn(row)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>

      <ul className="grid gap-3 md:hidden">
        {rows.map((row) => (
          <li key={row.id} className={cn("grid gap-3 rounded-xl border bg-card p-4 text-sm", selected.includes(row.id) && "border-lime-600/60 bg-muted/60")}>
            <div className="flex items-start gap-3">
              {selectable && !isOwn(row) && (
                <span className="pt-0.5">
                  <RowCheckbox row={row} checked={selected.includes(row.id)} onChange={toggle(row.id)} />
                </span>
              )}
              <MemberInfo row={row} />
              <span className="ml-auto shrink-0 text-right text-xs text-muted-foreground">
                <LocalTime value={row.createdAt} />
              </span>
            </div>
            <TaskInfo row={row} />
            <SubmissionContent submission={row.submission} member={who(row.member)} />
            <DecisionInfo row={row} />
            <RowActions row={row} own={isOwn(row)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
