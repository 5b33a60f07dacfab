/**
 * The smallest block in [`low`, `high`] at which `holds` is true, for a property that once true
 * stays true (a wallet's nonce above n, a block's time at or after t): a binary search taking
 * ⌈log2(high − low + 1)⌉ calls of `holds`. `holds(high)` is taken as true without asking; the
 * caller knows it (or answers `high` + 1 as "none yet" itself). Errors of `holds` pass through.
 */
export async function firstBlockWhere({ low, high, holds }: { low: bigint; high: bigint; holds: (blockNumber: bigint) => Promise<boolean> }): Promise<bigint> {
  while (low < high) {
    const middle = (low + high) / 2n;
    if (await holds(middle)) high = middle;
    else low = middle + 1n;
  }
  return high;
}
