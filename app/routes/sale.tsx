import { Store } from "lucide-react";
import type { Route } from "./+types/sale";
import { SaleScreen } from "~/components/chain/sale-screen";
import { TokenScreenUnavailable } from "~/components/chain/wallet-gate";
import { PageHeader } from "~/components/page-header";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { loadTokenScreen, readSale } from "~/modules/chain/token-reads.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Token sale") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return loadTokenScreen(context.get(servicesContext), request, readSale);
}

/** The token sale: fixed price between a start and an end, up to a hard cap and a cap per wallet. */
export default function Sale({ loaderData }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <PageHeader title="Token sale" description="Buy Questline's token at the sale's fixed price; the tokens arrive in your wallet at once." />
      {loaderData.ok ? <SaleScreen data={loaderData} /> : <TokenScreenUnavailable state={loaderData} icon={Store} what="sale" />}
    </div>
  );
}
