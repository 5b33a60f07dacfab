import { Inbox } from "lucide-react";
import { useFetcher } from "react-router";
import type { Route } from "./+types/deposits";
import { TxHash } from "~/components/chain/tx-progress";
import { EmptyState } from "~/components/empty-state";
import { OperatorNav } from "~/components/operator/operator-nav";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { dataWithToast } from "~/lib/flash.server";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { formatAmount } from "~/lib/token-amounts";
import { assignDepositSchema, assignUnmatchedDeposit, unmatchedDeposits } from "~/modules/deposits/unmatched-deposits.server";
import { requireOperatorUser } from "~/modules/projects/operators.server";
import { servicesContext } from "~/services/services.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import { LocalTime } from "~/components/campaigns/local-time";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Deposits") }, { name: "robots", content: "noindex" }];
}

export async function loader(args: Route.LoaderArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  const rows = await unmatchedDeposits({ db });
  return { rows: rows.map((row) => ({ ...row, amount: row.amount.toString(), createdAt: row.createdAt.toISOString() })) };
}

export type AssignActionData = { ok: true } | { ok: false; errors: FieldErrors };

export async function action(args: Route.ActionArgs) {
  const { db, email } = await requireOperatorUser(args.context, args.request);
  const formData = await args.request.formData();
  const form = parseForm(assignDepositSchema, formData);
  if (!form.ok) return formFailure(form, { ok: false as const });
  const result = await assignUnmatchedDeposit({ db, depositId: form.data.deposit, member: form.data.member, operatorEmail: email });
  if (!result.ok) return formFailure(result, { ok: false as const });
  // Said by the root once the page's data reloads: the row leaves the list in that same reload.
  return dataWithToast<AssignActionData>(
    { ok: true },
    { message: `Deposit given to ${result.member}`, description: "It is credited to them once its block is confirmed." },
    { appUrl: args.context.get(servicesContext).env.APP_URL },
  );
}

/** Operators: deposits whose reference matched no member, and giving each to the member it was meant for. */
export default function OperatorDeposits({ loaderData: { rows } }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Unmatched deposits"
        description="Deposits whose reference matched no member. Give each to the member it was meant for: it is credited to them once its block is confirmed."
        actions={<OperatorNav />}
      />
      {rows.length === 0 ? (
        <EmptyState icon={Inbox} title="No unmatched deposits">
          A deposit made with a reference that belongs to no member shows here.
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border">
          {rows.map((row) => (
            <UnmatchedRow key={row.id} row={row} />
          ))}
        </ul>
      )}
    </div>
  );
}

function UnmatchedRow({ row }: { row: Route.ComponentProps["loaderData"]["rows"][number] }) {
  const fetcher = useFetcher<AssignActionData>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const errors = result && !result.ok ? result.errors : {};
  const id = `assign-${row.id}`;
  const suggested = row.sender ? row.fromAddress : "";
  return (
    <li className="grid gap-3 p-4" data-deposit={row.id}>
      <div className="grid gap-1">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-medium">{formatAmount(BigInt(row.amount))} QUEST</span>
          <span className="text-sm text-muted-foreground">
            on {CHAIN_NAMES[row.chainId] ?? `chain ${row.chainId}`} · <LocalTime value={row.createdAt} />
          </span>
        </p>
        <p className="truncate font-mono text-xs text-muted-foreground">from {row.fromAddress}</p>
        <p className="truncate font-mono text-xs text-muted-foreground">reference {row.ref}</p>
        <TxHash hash={row.txHash} chainId={row.chainId} />
        {row.sender && (
          <p className="text-sm">
            Sent from a wallet linked to <span className="font-medium">{row.sender.label}</span>.
          </p>
        )}
      </div>
      <fetcher.Form method="post" noValidate className="grid gap-3">
        <input type="hidden" name="deposit" value={row.id} />
        <FormError message={errors.form ?? errors.deposit} />
        <div className="grid gap-3 sm:grid-cols-[minmax(0,24rem)_auto] sm:items-start sm:justify-start">
          <Field id={id} label="Give to member (e-mail, username or wallet)" error={errors.member}>
            <Input {...fieldProps(id, errors.member)} name="member" autoComplete="off" defaultValue={suggested} placeholder="member@example.com" />
          </Field>
          <Button type="submit" className="sm:mt-6" pending={fetcher.state !== "idle"}>
            Give deposit
          </Button>
        </div>
      </fetcher.Form>
    </li>
  );
}
