import { PauseCircle, PlayCircle, ShieldCheck } from "lucide-react";
import { useEffect } from "react";
import { data, useFetcher } from "react-router";
import type { Route } from "./+types/withdrawals";
import { TxHash } from "~/components/chain/tx-progress";
import { EmptyState } from "~/components/empty-state";
import { OperatorNav } from "~/components/operator/operator-nav";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toaster";
import { formText } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { withdrawalsNeedingAttention } from "~/modules/balance/operator-withdrawals.server";
import { formatAmount } from "~/lib/token-amounts";
import { requireOperatorUser } from "~/modules/projects/operators.server";
import { setWithdrawalsPaused, withdrawalsPaused } from "~/modules/withdrawals/withdrawal-pause.server";
import { LocalTime } from "~/components/campaigns/local-time";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Withdrawals") }, { name: "robots", content: "noindex" }];
}

export async function loader(args: Route.LoaderArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  const [paused, rows] = await Promise.all([withdrawalsPaused({ db }), withdrawalsNeedingAttention({ db })]);
  return { paused, rows: rows.map((row) => ({ ...row, amount: row.amount.toString(), updatedAt: row.updatedAt.toISOString() })) };
}

export async function action(args: Route.ActionArgs) {
  const { db, userId } = await requireOperatorUser(args.context, args.request);
  const intent = formText(await args.request.formData(), "intent");
  if (intent !== "pause" && intent !== "resume") return data({ ok: false as const, paused: null }, { status: 400 });
  await setWithdrawalsPaused({ db, paused: intent === "pause", by: userId });
  return { ok: true as const, paused: intent === "pause" };
}

/** Operators: pause and resume withdrawals, and see the ones that need attention. */
export default function OperatorWithdrawals({ loaderData: { paused, rows } }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) toast.success(result.paused ? "Withdrawals paused: new requests wait" : "Withdrawals resumed");
  }, [result]);
  return (
    <div className="grid gap-6">
      <PageHeader title="Withdrawals" description="Pause or resume paying withdrawals, and see the ones that need attention." actions={<OperatorNav />} />
      <Card>
        <CardHeader>
          <CardTitle>{paused ? "Withdrawals are paused" : "Withdrawals are being paid"}</CardTitle>
          <CardDescription>
            {paused
              ? "Requests are taken and held, and wait until you resume."
              : "The job pays requests as they come. Pausing stops new payments; requests wait."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
            <Button type="submit" variant={paused ? "brand" : "destructive"} pending={fetcher.state !== "idle"}>
              {paused ? <PlayCircle aria-hidden /> : <PauseCircle aria-hidden />} {paused ? "Resume withdrawals" : "Pause withdrawals"}
            </Button>
          </fetcher.Form>
        </CardContent>
      </Card>
      <section className="grid gap-3" aria-labelledby="attention-title">
        <h2 id="attention-title" className="text-lg font-semibold">
          Needing attention
        </h2>
        {rows.length === 0 ? (
          <EmptyState icon={ShieldCheck} title="Nothing needs attention">
            Failed, waiting and slow withdrawals show here.
          </EmptyState>
        ) : (
          <ul className="divide-y rounded-xl border">
            {rows.map((row) => (
              <li key={row.id} className="grid gap-1 p-3" data-withdrawal={row.id}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{formatAmount(BigInt(row.amount))} QUEST</span>
                  <Badge variant={row.status === "failed" ? "destructive" : "warning"}>
                    {row.waiting && row.status === "requested" ? "waiting" : row.status}
                  </Badge>
                  <span className="text-sm text-muted-foreground">
                    {row.member} · attempt {row.attempts} · <LocalTime value={row.updatedAt} />
                  </span>
                </div>
                <p className="truncate font-mono text-xs text-muted-foreground">to {row.toAddress}</p>
                {row.failure && <p className="text-sm text-destructive">{row.failure}</p>}
                {row.txHash && <TxHash hash={row.txHash} chainId={row.chainId} />}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
