import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { QUEST_DECIMALS } from "~/modules/ledger/assets";
import { rewardDecimals } from "~/modules/projects/set-reward-asset.server";

/**
 * Rows that name an asset (pools, a member's rewards, the treasury), each with the `decimals` its
 * amounts are shown in: the registry's token (USDC's 6), QUEST's 18 for an XP pool or an asset no
 * chain here lists. The one way reward pages learn an asset's decimals: loaders send them beside it.
 */
export function withDecimals<Row extends { asset: string | null }>(chains: Pick<ChainRegistry, "get">, rows: Row[]): (Row & { decimals: number })[] {
  return rows.map((row) => ({ ...row, decimals: rewardDecimals(chains, row.asset) ?? QUEST_DECIMALS }));
}
