import { useRouteLoaderData } from "react-router";
import { DEFAULT_APP_NAME } from "~/lib/app-name";
import type { ChainConfig } from "~/wallet/chain-config";

/** The part of the root loader's data that components read; typed here, as components do not import routes (`~/root`). */
type RootData = { appName: string; chains: ChainConfig };

const useRoot = () => useRouteLoaderData("root") as RootData | undefined;

/** The product's name as configured (`APP_NAME`). */
export function useAppName(): string {
  return useRoot()?.appName ?? DEFAULT_APP_NAME;
}

/** The chain nodes the server is configured with, for reading a chain from the browser; undefined outside the root route. */
export function useRootChains(): ChainConfig | undefined {
  return useRoot()?.chains;
}
