/** How an airdrop shares its total (allocation.ts): in proportion to points, or fixed amounts for the top ranks. */
export const AIRDROP_RULES = ["pro_rata", "top"] as const;
export type AirdropRule = (typeof AIRDROP_RULES)[number];

/** `open` until the freeze; `frozen` once its allocation and tree are written. */
export const AIRDROP_STATUSES = ["open", "frozen"] as const;
export type AirdropStatus = (typeof AIRDROP_STATUSES)[number];

/** Hashes per stored chunk of the tree's node array (32 bytes each: 128 KiB a chunk). */
export const AIRDROP_TREE_CHUNK = 4096;
