import { Landmark, ShieldCheck } from "lucide-react";
import { data, Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/balance";
import { BalanceStats } from "~/components/balance/balance-stats";
import { DepositCard } from "~/components/balance/deposit-card";
import { PendingRows } from "~/components/balance/pending-rows";
import { TransactionTable } from "~/components/balance/transaction-table";
import { useRefreshWhile } from "~/components/balance/use-refresh-while";
import { WithdrawCard } from "~/components/balance/withdraw-card";
import { FilterTabs } from "~/components/campaigns/filter-tabs";
import { TokenScreenUnavailable } from "~/components/chain/wallet-gate";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { formText, parseForm } from "~/lib/forms";
import { FAILURE_STATUS, failureMessage, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { pageTitle } from "~/lib/meta";
import { withinRateLimit } from "~/lib/rate-limit.server";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { isOperator } from "~/modules/projects/operators.server";
import type { BalanceActionData } from "~/modules/balance/balance-page";
import { loadBalancePage } from "~/modules/balance/balance-page.server";
import { cancelWithdrawal, requestWithdrawal, retryWithdrawal, withdrawalLimits } from "~/modules/withdrawals/withdrawals.server";
import { withdrawalFormSchema } from "~/modules/withdrawals/withdrawal.schema";
import { withdrawalChainsOf } from "~/modules/withdrawals/withdrawal-chain.server";
import { CHAIN_NAMES } from "~/wallet/chains";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Balance") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const [page, operator] = await Promise.all([
    loadBalancePage(services, user.id, request),
    isOperator({ db: services.database.db, operators: services.env.operators, userId: user.id }),
  ]);
  return { ...page, operator };
}

const rowSchema = z.object({ id: z.string().regex(/^0x[0-9a-f]{64}$/i) });

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const formData = await request.formData();
  const intent = formText(formData, "intent");
  const reply = (body: BalanceActionData, status = 200) => data<BalanceActionData>(body, { status });
  if (!(await withinRateLimit({ db, key: `balance:${user.id}`, max: 20, windowSeconds: 60 }))) {
    const error = "Too many requests: wait a minute and try again.";
    if (intent === "cancel" || intent === "retry") return reply({ intent, ok: false, id: "", error }, 429);
    return reply({ intent: "withdraw", ok: false, errors: { form: error } }, 429);
  }

  if (intent === "withdraw") {
    const form = parseForm(withdrawalFormSchema, formData);
    if (!form.ok) return formFailure(form, { intent, ok: false as const });
    const result = await requestWithdrawal({ db, userId: user.id, input: form.data, limits: withdrawalLimits(services.env), chains: services.chains });
    if (!result.ok) return formFailure(result, { intent, ok: false as const });
    return reply({ intent, ok: true, id: result.id });
  }
  if (intent === "cancel" || intent === "retry") {
    const row = rowSchema.safeParse({ id: formData.get("id") });
    if (!row.success) return reply({ intent, ok: false, id: "", error: "Choose a withdrawal." }, 400);
    const result =
      intent === "cancel"
        ? await cancelWithdrawal({ db, userId: user.id, id: row.data.id, chains: withdrawalChainsOf(services.chains, { forPage: true }) })
        : await retryWithdrawal({ db, userId: user.id, id: row.data.id });
    if (!result.ok) return reply({ intent, ok: false, id: row.data.id, error: failureMessage(result) }, FAILURE_STATUS[result.code]);
    return reply({ intent, ok: true, id: row.data.id });
  }
  return reply({ intent: "withdraw", ok: false, errors: { form: "That action is not known." } }, 400);
}

/**
 * Balance: what the member holds inside Questline, deposits from their wallet and withdrawals to
 * it, of the chosen network's chosen token (`?chain=`, `?token=`: the tokens its vault lists).
 */
export default function Balance({ loaderData }: Route.ComponentProps) {
  const { chain, asset } = loaderData;
  const underWay = loaderData.deposits.length > 0 || loaderData.withdrawals.some((w) => w.status !== "failed");
  const refresh = useRefreshWhile(underWay);
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Balance"
        description="Your balance inside Questline: deposit from your wallet, withdraw to it."
        actions={
          loaderData.operator && (
            <Button asChild variant="outline">
              <Link to={route("operator.withdrawals")}>
                <ShieldCheck aria-hidden /> Operator: withdrawals
              </Link>
            </Button>
          )
        }
      />
      {"chainIds" in chain && (chain.chainIds.length > 1 || (chain.ok && chain.facts.tokens.length > 1)) && (
        <div className="flex flex-wrap gap-3">
          {chain.chainIds.length > 1 && (
            <FilterTabs
              param="chain"
              label="Network"
              current={String(chain.chainId)}
              tabs={chain.chainIds.map((id) => ({ value: String(id), label: CHAIN_NAMES[id] ?? `Chain ${id}` }))}
            />
          )}
          {chain.ok && chain.facts.tokens.length > 1 && (
            <FilterTabs
              param="token"
              label="Token"
              current={chain.facts.symbol}
              tabs={chain.facts.tokens.map((symbol) => ({ value: symbol, label: symbol }))}
            />
          )}
        </div>
      )}
      <BalanceStats balances={loaderData.balances} chain={chain} asset={asset} />
      {chain.ok ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <DepositCard chain={chain} depositRef={loaderData.ref} onSent={refresh} />
          <WithdrawCard
            key={asset}
            balance={loaderData.balances.find((b) => b.asset === (asset ?? ""))!}
            limits={loaderData.limits}
            destinations={loaderData.destinations}
            paused={loaderData.paused}
          />
        </div>
      ) : (
        <TokenScreenUnavailable state={chain} icon={Landmark} what="vault" />
      )}
      <PendingRows deposits={loaderData.deposits} withdrawals={loaderData.withdrawals} paused={loaderData.paused} />
      <TransactionTable rows={loaderData.transactions} page={loaderData.page} hasMore={loaderData.hasMore} />
    </div>
  );
}
