import type { ChainConfig } from "./chain-config";

// No viem here: the page shell (wallet-provider.tsx) asks whether the wallet cloud is configured,
// and importing chain-config.ts for it would bring that module's node transports (viem) into
// every page's first load.

/** Used when no wallet-modal project id is configured: injected wallets work, its cloud features do not. */
export const LOCAL_PROJECT_ID = "00000000000000000000000000000000";

/** Whether the wallet modal has a real project id, which its cloud features (e-mail, social, swaps, on-ramp, WalletConnect) need. */
export const hasWalletCloud = (config: Pick<ChainConfig, "projectId">) => config.projectId !== LOCAL_PROJECT_ID;
