import { BaseError, HttpRequestError, LimitExceededRpcError, RpcRequestError, SocketClosedError, TimeoutError } from "viem";

/** Whether an error means the node did not answer (refused, timed out, connection closed). */
export function isNodeUnreachable(error: unknown): boolean {
  if (error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError)) {
    return true;
  }
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|timed? ?out/i.test(text);
}

/**
 * The node could not answer a read (unreachable, timed out, an HTTP error such as a 5xx, or a rate
 * limit). A member is told "the chain could not be reached, try again" and nothing is recorded;
 * it never means "not done". An answer such as "no such transaction" is not this error.
 */
export class ChainUnreachable extends Error {
  override readonly name = "ChainUnreachable";
  constructor(cause: unknown) {
    super("The chain could not be reached", { cause });
  }
}

/** Rate limits as JSON-RPC errors (EIP-1474's -32005, and providers' 429 inside a 200 answer). */
const RATE_LIMITED = /rate limit|too many requests|exceeded .*(quota|capacity|compute units)/i;

/** Whether an error is the node failing to answer (ChainUnreachable's causes), not the node's answer. */
export function isNodeFailure(error: unknown): boolean {
  if (error instanceof ChainUnreachable || isNodeUnreachable(error)) return true;
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk(
      (e) =>
        e instanceof LimitExceededRpcError ||
        (e instanceof RpcRequestError && (e.code === 429 || (e.status ?? 0) >= 500 || e.status === 429 || RATE_LIMITED.test(e.details))),
    ),
  );
}

/** Runs reads against a node, turning its failures into ChainUnreachable; its answers (errors included) pass as they are. */
export async function fromNode<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw isNodeFailure(error) ? new ChainUnreachable(error) : error;
  }
}

/**
 * Answers of a node that keeps no state for an older block (a full or pruned node, not an archive),
 * as each client words them:
 *  - geth (hash scheme): `missing trie node <hash> (path …)`;
 *  - geth (path scheme): `historical state not available in path scheme yet`, `historical state <root> is not available`;
 *  - reth: `state at block #<n> is pruned`; its expired history (EIP-4444): `Pruned history unavailable` (code 4444);
 *  - erigon: `history has been pruned`… variants, `this data is only available on an archive node` (providers);
 *  - anvil with `--prune-history`: `BlockOutOfRangeError: block height is <head> but requested was <n>`;
 *  - providers in front of full nodes: `header not found` for an old block's state, "archive" wordings.
 */
const HISTORICAL_STATE_UNAVAILABLE = [
  /missing trie node/i,
  /historical state (not available|unavailable|[0-9a-fx]+ is not available)/i,
  /state at block #?\d+ is pruned/i,
  /pruned history unavailable/i,
  /history (has been|is) pruned/i,
  /only available on an archive node|not running in archive mode|does not have access to archive state/i,
  /BlockOutOfRangeError: block height is \d+ but requested was \d+/,
  /^header not found$/i,
];

/** Whether an error is a node saying it keeps no state for the block asked (see HISTORICAL_STATE_UNAVAILABLE). */
export function isHistoricalStateUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(error.walk((e) => e instanceof BaseError && HISTORICAL_STATE_UNAVAILABLE.some((pattern) => pattern.test(e.details ?? ""))));
}
