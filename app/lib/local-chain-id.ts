/**
 * The local development chain (anvil) that the local trial runs. Its id lives alone here, so that
 * the page shell can name the network without loading chain-config.ts and the viem code it holds.
 */
export const LOCAL_CHAIN_ID = 31337;

/**
 * A second local development chain, for running Questline on two chains at once (the tests' second
 * anvil; a developer's, given by RPC_URL_31338 and a deployment file). Like every local chain it is
 * offered only where this deployment has a node for it.
 */
export const SECOND_LOCAL_CHAIN_ID = 31338;
