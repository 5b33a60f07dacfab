import { sha256, stringToBytes } from "viem";

/**
 * The raffle draw, reproducible by anyone holding the seed and the entrants, on the server and
 * in a member's browser alike (hence no node: imports):
 *
 * 1. Entrants are the campaign's completers as of the moment the pool was paid, in the order they
 *    finished (time of their last approval), ties by member id (`completersOf` with `asOf`).
 * 2. A partial Fisher–Yates shuffle: for draw i = 0, 1, … (up to the number of winners), pick
 *    j uniformly in [i, n) and swap entrants i and j; entrant i is the (i + 1)th winner.
 * 3. "Uniformly" comes from SHA-256 of the UTF-8 bytes of `<seed>:<i>:<attempt>` read as a 48-bit
 *    big-endian integer x; x is kept when x < 2^48 − (2^48 mod m) (no modulo bias), else the next
 *    attempt is hashed; j = i + (x mod m), where m = n − i.
 *
 * The seed is used exactly as the string given: its case and any `0x` prefix are part of it.
 */
export function drawRaffle({ seed, entrants, winners }: { seed: string; entrants: readonly string[]; winners: number }): string[] {
  const order = [...entrants];
  const draws = Math.min(winners, order.length);
  for (let i = 0; i < draws; i++) {
    const j = i + uniformBelow(seed, i, order.length - i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, draws);
}

const RANGE = 2 ** 48;

function uniformBelow(seed: string, draw: number, m: number): number {
  const limit = RANGE - (RANGE % m);
  for (let attempt = 0; ; attempt++) {
    const x = first48Bits(sha256(stringToBytes(`${seed}:${draw}:${attempt}`), "bytes"));
    if (x < limit) return x % m;
  }
}

/** The first six bytes as a big-endian integer: exact, since 2^48 is below 2^53. */
function first48Bits(digest: Uint8Array): number {
  let x = 0;
  for (let k = 0; k < 6; k++) x = x * 256 + digest[k]!;
  return x;
}
