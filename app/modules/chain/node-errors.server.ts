import { BaseError, HttpRequestError, SocketClosedError, TimeoutError } from "viem";

/** Whether an error means the node did not answer (refused, timed out, connection closed). */
export function isNodeUnreachable(error: unknown): boolean {
  if (error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError)) {
    return true;
  }
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|timed? ?out/i.test(text);
}
