/**
 * The local development chain (anvil) that the local trial runs. Its id lives alone here, so that
 * the page shell can name the network without loading chain-config.ts and the viem code it holds.
 */
export const LOCAL_CHAIN_ID = 31337;
