import { useRouteLoaderData } from "react-router";
import type { ChainConfig } from "~/wallet/chain-config";

/** The part of the root loader's data that components read; typed here, as components do not import routes (`~/root`). */
type RootData = { chains: ChainConfig };

/** The chain nodes the server is configured with, for reading a chain from the browser; undefined outside the root route. */
export function useRootChains(): ChainConfig | undefined {
  return (useRouteLoaderData("root") as RootData | undefined)?.chains;
}
