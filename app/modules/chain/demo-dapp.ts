/**
 * What the Demo dApp page's loader gives it (demo-dapp.server.ts builds it): per local chain with
 * demo contracts, the contracts, the swap's pair, rate and reserves, and the connected wallet's
 * holdings; or that the chain's node did not answer. Plain data (bigints as decimal strings).
 */
export type DemoToken = { address: `0x${string}`; symbol: string; decimals: number };

export type DemoChainReading =
  | {
      ok: true;
      chainId: number;
      chainName: string;
      coin: string;
      collection: `0x${string}`;
      items: `0x${string}`;
      swap: `0x${string}`;
      /** The swap's pair: QUEST, then the stand-in USDC. */
      tokenA: DemoToken;
      tokenB: DemoToken;
      /** Units of tokenA per unit of tokenB. */
      rate: string;
      reserves: { a: string; b: string };
      /** The chain's own clock (its latest block, unix seconds), which may run ahead of ours (a test chain): swaps' deadlines count from it. */
      chainTime: number;
      member: {
        address: `0x${string}`;
        explorers: string;
        /** Units of items 1, 2 and 3. */
        items: [string, string, string];
        a: string;
        b: string;
        allowanceA: string;
        allowanceB: string;
      } | null;
    }
  | { ok: false; chainId: number; chainName: string };

/** The demo ERC-1155's item ids and the most one mint takes (contracts/DemoItems.sol). */
export const DEMO_ITEM_IDS = [1, 2, 3] as const;
export const DEMO_ITEMS_PER_MINT = 10;
