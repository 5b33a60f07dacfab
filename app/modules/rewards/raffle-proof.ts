import { concat, keccak256, sha256, stringToBytes, type Hex } from "viem";
import { z } from "zod";
import { drawRaffle } from "./draw-raffle";

/**
 * A provably fair raffle, checkable by any member in the browser (the verify page) or with
 * `npm run verify-raffle`. Before the draw the server publishes the commitment to a secret it
 * keeps, the entrant list's hash and a future block number; once that block is mined it reveals
 * the secret and draws with seed = keccak256(secret ‖ block hash ‖ entrant-list hash). Nobody can
 * steer the seed: the server is bound to its secret before the block exists, and the block's
 * producer cannot know the secret.
 */

/** The commitment published before the draw: SHA-256 of the secret's 32 raw bytes, as 0x-hex. */
export function commitmentOf(secret: Hex): Hex {
  return sha256(secret);
}

/**
 * What a member re-computes from the entrant list: keccak256 of the UTF-8 bytes of the entrant
 * ids, in draw order, joined with a single "\n" (no trailing line break; no entrants is the empty
 * string). Ids are never empty and never contain "\n", so each list has exactly one text.
 */
export function entrantListHash(entrantIds: readonly string[]): Hex {
  return keccak256(stringToBytes(entrantIds.join("\n")));
}

/**
 * The draw's seed: keccak256 over the raw 96 bytes secret ‖ blockHash ‖ entrantsHash, as 0x and
 * lower-case hex. `drawRaffle` takes this exact string as its seed, prefix included.
 */
export function raffleSeed({ secret, blockHash, entrantsHash }: { secret: Hex; blockHash: Hex; entrantsHash: Hex }): Hex {
  return keccak256(concat([secret, blockHash, entrantsHash]));
}

/** A raffle's proof as the server publishes it at /rewards/raffles/<poolId>/proof.json. */
export type RaffleProof = {
  poolId: string;
  winnersWanted: number;
  commitment: Hex;
  /** null until the raffle is drawn, as are blockHash and seed. */
  secret: Hex | null;
  /** In draw order: see `drawRaffle`. */
  entrants: { id: string; label: string }[];
  entrantsHash: Hex;
  chainId: number;
  /** Decimal, as JSON has no bigint. */
  blockNumber: string;
  blockHash: Hex | null;
  seed: Hex | null;
  /** Entrant ids in draw order. */
  winners: string[];
};

/** 32 bytes as 0x and lower-case hex: the one spelling `raffleSeed` and the draw agree on. */
const bytes32 = z.custom<Hex>((value) => typeof value === "string" && /^0x[0-9a-f]{64}$/.test(value), "must be 32 bytes as 0x and 64 lower-case hex digits");

export const raffleProofSchema = z.object({
  poolId: z.string().min(1),
  winnersWanted: z.number().int().positive(),
  commitment: bytes32,
  secret: bytes32.nullable(),
  entrants: z.array(z.object({ id: z.string().regex(/^[^\n]+$/, "must be non-empty, without a line break"), label: z.string() })),
  entrantsHash: bytes32,
  chainId: z.number().int().positive(),
  blockNumber: z.string().regex(/^\d+$/, "must be a decimal number"),
  blockHash: bytes32.nullable(),
  seed: bytes32.nullable(),
  winners: z.array(z.string()),
}) satisfies z.ZodType<RaffleProof>;

export type RaffleCheck = { name: string; ok: boolean; words: string };
export type RaffleVerification = { ok: boolean; checks: RaffleCheck[] };

/**
 * Every check of a proof against the hash the chain reports for its block (null when it could
 * not be read), each said in plain English. `ok` only when all pass, so an undrawn raffle is
 * never "ok": its checks say it is not drawn yet.
 */
export function verifyRaffle(proof: RaffleProof, chainBlockHash: Hex | null): RaffleVerification {
  const checks = [checkCommitment(proof), checkEntrants(proof), checkBlock(proof, chainBlockHash), checkSeed(proof), checkWinners(proof)];
  return { ok: checks.every((check) => check.ok), checks };
}

/**
 * Parses a proof from the network and checks it against the chain. `readBlockHash` gives the
 * hash of the block on the proof's chain, or null when the chain has no such block; it is asked
 * only once the proof names a block hash. Its errors (an unreachable node) propagate.
 */
export async function verifyFromSources({
  proof,
  readBlockHash,
}: {
  proof: unknown;
  readBlockHash: (block: { chainId: number; blockNumber: bigint }) => Promise<Hex | null>;
}): Promise<RaffleVerification> {
  const parsed = raffleProofSchema.safeParse(proof);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "the proof"} ${issue.message}`);
    return { ok: false, checks: [{ name: "proof", ok: false, words: `The proof is not well-formed: ${problems.join("; ")}.` }] };
  }
  const { chainId, blockNumber, blockHash } = parsed.data;
  const chainBlockHash = blockHash === null ? null : await readBlockHash({ chainId, blockNumber: BigInt(blockNumber) });
  return verifyRaffle(parsed.data, chainBlockHash);
}

const NOT_DRAWN = "the raffle has not been drawn yet";

function checkCommitment({ secret, commitment }: RaffleProof): RaffleCheck {
  const name = "commitment";
  if (secret === null) return { name, ok: false, words: `The secret is not revealed yet: ${NOT_DRAWN}. Its commitment ${short(commitment)} is published.` };
  if (commitmentOf(secret) !== commitment)
    return { name, ok: false, words: `The revealed secret does not match the commitment ${short(commitment)} published before the draw.` };
  return { name, ok: true, words: `The revealed secret matches the commitment ${short(commitment)} published before the draw.` };
}

function checkEntrants({ entrants, entrantsHash }: RaffleProof): RaffleCheck {
  const name = "entrants";
  const ids = entrants.map((entrant) => entrant.id);
  const one = ids.length === 1;
  const listed = `The ${count(ids.length, "entrant")} listed`;
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined) return { name, ok: false, words: `${listed} name ${twice} twice: nobody may enter the draw twice.` };
  if (entrantListHash(ids) !== entrantsHash) {
    return {
      name,
      ok: false,
      words: `${listed} ${one ? "does" : "do"} not match the entrant-list hash ${short(entrantsHash)}: an entrant was added, left out, changed or moved.`,
    };
  }
  return { name, ok: true, words: `${listed} ${one ? "matches" : "match"} the entrant-list hash ${short(entrantsHash)}.` };
}

function checkBlock({ chainId, blockNumber, blockHash }: RaffleProof, chainBlockHash: Hex | null): RaffleCheck {
  const name = "block";
  const block = `block ${blockNumber} on chain ${chainId}`;
  if (blockHash === null) return { name, ok: false, words: `The proof gives no block hash: ${NOT_DRAWN}. It will use the hash of ${block}.` };
  if (chainBlockHash === null) return { name, ok: false, words: `The hash of ${block} could not be read from the chain.` };
  if (chainBlockHash.toLowerCase() !== blockHash) {
    return {
      name,
      ok: false,
      words: `The block hash ${short(blockHash)} in the proof is not the hash the chain reports for ${block} (${short(chainBlockHash)}).`,
    };
  }
  return { name, ok: true, words: `The block hash ${short(blockHash)} is the hash the chain reports for ${block}.` };
}

function checkSeed({ secret, blockHash, entrantsHash, seed }: RaffleProof): RaffleCheck {
  const name = "seed";
  const formula = "keccak256(secret ‖ block hash ‖ entrant-list hash)";
  if (secret === null || blockHash === null || seed === null) return { name, ok: false, words: `The proof gives no seed yet: ${NOT_DRAWN}.` };
  const expected = raffleSeed({ secret, blockHash, entrantsHash });
  if (seed !== expected) return { name, ok: false, words: `The seed ${short(seed)} is not ${formula}, which is ${short(expected)}.` };
  return { name, ok: true, words: `The seed ${short(seed)} is ${formula}.` };
}

function checkWinners({ seed, entrants, winnersWanted, winners }: RaffleProof): RaffleCheck {
  const name = "winners";
  if (seed === null) return { name, ok: false, words: `The proof names no winners yet: ${NOT_DRAWN}.` };
  const expected = drawRaffle({ seed, entrants: entrants.map((entrant) => entrant.id), winners: winnersWanted });
  const differ = firstDifference(expected, winners);
  if (differ === undefined)
    return {
      name,
      ok: true,
      words:
        winners.length === 1
          ? "The 1 winner listed is the one the draw gives from the seed and the entrants."
          : `The ${count(winners.length, "winner")} listed, in order, are the ones the draw gives from the seed and the entrants.`,
    };
  const drawn = expected[differ];
  const listed = winners[differ];
  if (drawn === undefined || listed === undefined) {
    return { name, ok: false, words: `The proof lists ${count(winners.length, "winner")} where the draw gives ${expected.length}.` };
  }
  const labelOf = (id: string) => entrants.find((entrant) => entrant.id === id)?.label ?? id;
  return {
    name,
    ok: false,
    words: `The winners listed are not the ones the draw gives: winner ${differ + 1} should be ${labelOf(drawn)}, not ${labelOf(listed)}.`,
  };
}

function firstDifference(a: readonly string[], b: readonly string[]): number | undefined {
  for (let k = 0; k < Math.max(a.length, b.length); k++) if (a[k] !== b[k]) return k;
  return undefined;
}

/** A hash short enough to read aloud and compare by eye: 0x12ab…cdef. */
function short(hash: Hex): string {
  return `${hash.slice(0, 6)}…${hash.slice(-4)}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
