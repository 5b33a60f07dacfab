import { z } from "zod";

/**
 * What an on-chain check found, kept on the completion it approved (`completion.evidence`) and
 * shown on the task's card: "Checked on Base at block 18,204,331 — transaction 0xab…cd".
 * Browser-safe; the same shape for every on-chain task type (issue #37, decision 058):
 *  - `blockNumber` / `blockHash`: the block the evidence is in (a transaction's or a log's), or the
 *    block a holding was read at;
 *  - `txHash` and `logIndex` where a transaction or an event is the evidence;
 *  - `wallet`: which of the member's linked wallets it is about;
 *  - `values`: what was measured, as decimal strings (a balance, an amount moved, a nonce).
 * `settled` is set once the block is deep enough that a reorg is no longer looked for; `reorged`
 * when a reorg moved the evidence (the completion is then voided or its evidence updated).
 */
const hex = (length: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${length}}$`));

export const chainEvidenceSchema = z.object({
  kind: z.literal("chain"),
  chainId: z.number().int().positive(),
  blockNumber: z.string().regex(/^\d{1,20}$/),
  blockHash: hex(64),
  txHash: hex(64).optional(),
  logIndex: z.number().int().nonnegative().optional(),
  wallet: hex(40),
  values: z.record(z.string(), z.string()).default({}),
  settled: z.boolean().optional(),
});

export type ChainEvidence = z.output<typeof chainEvidenceSchema>;

/** The evidence kept on a completion, when it is a chain's (older or social evidence is not). */
export function chainEvidenceOf(evidence: unknown): ChainEvidence | null {
  const parsed = chainEvidenceSchema.safeParse(evidence);
  return parsed.success ? parsed.data : null;
}
