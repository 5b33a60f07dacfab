/**
 * Every ledger posting's idempotency key, built in one place: the same movement always gets the
 * same key, so a retry, a second worker or a re-run after a crash posts it once. A key names what
 * moved and the fact that makes it unique (a withdrawal attempt, a pool's escrow move, a grant
 * batch); parts are joined with `:` and never contain one of their own except chain/tx pairs.
 */
export const ledgerKey = {
  withdrawalHold: (withdrawalId: string) => `withdrawal:${withdrawalId}:hold`,
  withdrawalRelease: (withdrawalId: string) => `withdrawal:${withdrawalId}:release`,
  withdrawalSent: (withdrawalId: string, attempt: number) => `withdrawal:${withdrawalId}:sent:${attempt}`,
  withdrawalReturned: (withdrawalId: string, attempt: number) => `withdrawal:${withdrawalId}:returned:${attempt}`,
  withdrawalConfirmed: (withdrawalId: string) => `withdrawal:${withdrawalId}:confirmed`,
  withdrawalFee: (withdrawalId: string) => `withdrawal:${withdrawalId}:fee`,
  /** A vault deposit seen (again, after `reorgs` reorgs) in a block, reorged out of one, credited. */
  depositSeen: (chainId: number, txHash: string, logIndex: number, blockHash: string, reorgs: number) =>
    `deposit:seen:${chainId}:${txHash}:${logIndex}:${blockHash}${reorgs > 0 ? `:${reorgs}` : ""}`,
  depositReorg: (depositId: string, blockHash: string, reorgs: number) => `deposit:reorg:${depositId}:${blockHash}${reorgs > 0 ? `:${reorgs}` : ""}`,
  depositCredit: (chainId: number, txHash: string, logIndex: number) => `deposit:credit:${chainId}:${txHash}:${logIndex}`,
  /** A member funding a project: the form's request key makes a double submit post once. */
  projectFunding: (projectId: string, userId: string, requestKey: string) => `project:${projectId}:funding:${userId}:${requestKey}`,
  /** The nth move of a pool's escrow (publish, edit, delete): moves are numbered under the pool's row lock. */
  poolEscrow: (poolId: string, move: number) => `pool:${poolId}:escrow:${move}`,
  /** One batch of a pool's paid grants, named by its first member (unpaid until then, so never the head of an earlier batch). */
  poolGrants: (poolId: string, firstMember: string) => `pool:${poolId}:grants:${firstMember}`,
  /** The nth move of an airdrop's escrow (publish, edit, unpublish, the freeze's return): numbered under the airdrop's row lock. */
  airdropEscrow: (airdropId: string, move: number) => `airdrop:${airdropId}:escrow:${move}`,
  /** An airdrop's escrow leaving the vault for its round on the distributor, once the vault paid it. */
  airdropFunded: (airdropId: string) => `airdrop:${airdropId}:funded`,
  /** What an airdrop's round did not pay, swept back into the vault for the project's treasury. */
  airdropSwept: (airdropId: string) => `airdrop:${airdropId}:swept`,
  /** What a paid pool did not pay, back to the project's treasury. */
  poolReturn: (poolId: string) => `pool:${poolId}:return`,
} as const;
