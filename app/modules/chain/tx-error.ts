// No imports: the wallet provider (in every page) uses it.

/** Why a transaction did not go through, as the page tells it. */
export type TxFailureKind = "rejected" | "revert" | "network" | "chain" | "funds" | "unknown";

/** An error the transaction helpers throw with a sentence for the member. */
export class TxError extends Error {
  override name = "TxError";
  constructor(
    readonly kind: TxFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The sentence to show for any error a transaction attempt threw. */
export function txErrorMessage(error: unknown): { kind: TxFailureKind; message: string } {
  if (error instanceof TxError) return { kind: error.kind, message: error.message };
  const code = typeof error === "object" && error && "code" in error ? (error as { code: unknown }).code : undefined;
  if (code === 4001) return { kind: "rejected", message: "You rejected the transaction in your wallet. Nothing was sent." };
  return { kind: "unknown", message: error instanceof Error && error.message ? error.message : "The transaction could not be sent." };
}
