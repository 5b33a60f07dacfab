// No imports: the wallet provider (in every page) uses it.

/** Why a transaction did not go through, as the page tells it. */
export type TxFailureKind = "rejected" | "revert" | "network" | "chain" | "funds" | "unknown";

/**
 * An error the transaction helpers throw with a sentence for the member. `final`: a refusal that
 * will not change on a retry (claimed already, claims closed, not in the allocation).
 */
export class TxError extends Error {
  override name = "TxError";
  readonly kind: TxFailureKind;
  readonly final: boolean;
  constructor(kind: TxFailureKind, message: string, options?: { cause?: unknown; final?: boolean }) {
    super(message, options);
    this.kind = kind;
    this.final = options?.final ?? false;
  }
}

export type TxFailure = { kind: TxFailureKind; message: string; final: boolean };

/** The sentence to show for any error a transaction attempt threw. */
export function txErrorMessage(error: unknown): TxFailure {
  if (error instanceof TxError) return { kind: error.kind, message: error.message, final: error.final };
  const code = typeof error === "object" && error && "code" in error ? (error as { code: unknown }).code : undefined;
  if (code === 4001) return { kind: "rejected", message: "You rejected the transaction in your wallet. Nothing was sent.", final: false };
  return { kind: "unknown", message: "The transaction could not be sent. Check your wallet and try again.", final: false };
}
