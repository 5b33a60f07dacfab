import { data } from "react-router";
import type { Route } from "./+types/demo-dapp";
import { DemoChain } from "~/components/demo-dapp/demo-chain";
import { useWalletParams } from "~/components/chain/use-wallet-params";
import { PageHeader } from "~/components/page-header";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { demoChains, loadDemoDapp } from "~/modules/chain/demo-dapp.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Demo dApp") }];
}

/** Only where a local chain has demo contracts: elsewhere the page does not exist. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  if (demoChains(services).length === 0) throw data(null, { status: 404 });
  await requireUser(context, request);
  return { chains: await loadDemoDapp(services, request) };
}

/** Demo dApp: the local chains' demo NFT, items and swap, to try on-chain tasks with a wallet. */
export default function DemoDapp({ loaderData }: Route.ComponentProps) {
  const { chains } = loaderData;
  // The wallet whose holdings the loader read (the same on every chain).
  const account = chains.flatMap((chain) => (chain.ok && chain.member ? [chain.member.address] : []))[0] ?? null;
  useWalletParams({ account, chainId: chains[0]!.chainId, chainIds: chains.map((chain) => chain.chainId) });
  return (
    <div className="grid gap-8">
      <PageHeader
        title="Demo dApp"
        description="Contracts deployed on this server's local chains so you can try on-chain tasks: mint an NFT, mint items, swap."
      />
      {chains.map((chain) => (
        <DemoChain key={chain.chainId} chain={chain} />
      ))}
    </div>
  );
}
