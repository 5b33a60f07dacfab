import { data } from "react-router";

/**
 * What a domain function that can refuse returns: `ok` with its value, field errors (the input is
 * refused, field by field: `form` names the whole form), or a coded failure from one table.
 * Messages are whole sentences for the member; the code says what kind of refusal it is, and so
 * which HTTP status an action answers with.
 */
export const FAILURE_STATUS = {
  /** The input is refused: `errors` says why, field by field. */
  invalid: 400,
  /**
   * The request was right and the rule ran; its answer is no: a check found the task not done yet
   * (no follow, too few tokens), the member did it already, the task has ended. A result, not an
   * error: answered 200 with the message, shown as the form's refusal.
   */
  not_met: 200,
  /** The acting member may not do this. */
  forbidden: 403,
  /** What the action names does not exist (any more). */
  not_found: 404,
  /** What the action names is in a state that does not allow it (taken, paid, ended, changed meanwhile). */
  conflict: 409,
  /** Too many attempts: `retryAfterSeconds` says when to come back. */
  limited: 429,
  /** A service we depend on (a chain node, the mail server) did not answer; nothing changed. */
  unavailable: 503,
} as const;

export type FailureCode = keyof typeof FAILURE_STATUS;
export type FieldErrors = Record<string, string>;

export type Ok<T extends object = object> = { ok: true } & T;
export type FieldFailure = { ok: false; code: "invalid"; errors: FieldErrors };
export type CodedFailure = { ok: false; code: Exclude<FailureCode, "invalid">; message: string; retryAfterSeconds?: number };
export type Failure = FieldFailure | CodedFailure;
/** A failure of any code shown on one field of a form (a task's answer, its Check button). */
export type FailureOnField = { ok: false; code: FailureCode; errors: FieldErrors; retryAfterSeconds?: number };
export type Result<T extends object = object> = Ok<T> | Failure;

export function ok(): Ok;
export function ok<T extends object>(value: T): Ok<T>;
export function ok(value: object = {}) {
  return { ok: true, ...value };
}

/** The input is refused: `field` (or `form`, the whole form) gets `message`. */
export const invalid = (field: string, message: string): FieldFailure => ({ ok: false, code: "invalid", errors: { [field]: message } });

/** Several fields refused at once, as a form parser finds them. */
export const invalidFields = (errors: FieldErrors): FieldFailure => ({ ok: false, code: "invalid", errors });

/** A refusal of another kind than the input's: a state, a permission, a limit or a service. */
export const failure = (code: CodedFailure["code"], message: string, retryAfterSeconds?: number): CodedFailure =>
  retryAfterSeconds === undefined ? { ok: false, code, message } : { ok: false, code, message, retryAfterSeconds };

/** The failure as a form shows it: field errors as they are, a coded failure's message as the form's. */
export const failureErrors = (result: Failure): FieldErrors => (result.code === "invalid" ? result.errors : { form: result.message });

/** The failure in one sentence (a toast, a log line): the first field error, or the message. */
export const failureMessage = (result: Failure): string =>
  result.code === "invalid" ? (Object.values(result.errors)[0] ?? "Check what you entered.") : result.message;

/** The failure on `field`, whatever its code, keeping a limit's wait. */
export function failureOnField(result: Failure, field: string): FailureOnField {
  const retryAfterSeconds = result.code === "invalid" ? undefined : result.retryAfterSeconds;
  return { ok: false, code: result.code, errors: { [field]: failureMessage(result) }, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

/**
 * The one way an action answers a failure: `{ ...extra, errors }` (read by `Field` and
 * `FormError`) with the code's status, and Retry-After for a limit.
 */
export function formFailure<T extends object = object>(result: Failure | FailureOnField, extra?: T) {
  const errors = "errors" in result ? result.errors : failureErrors(result);
  const retryAfterSeconds = "retryAfterSeconds" in result ? result.retryAfterSeconds : undefined;
  const headers: HeadersInit | undefined = retryAfterSeconds !== undefined ? { "Retry-After": String(retryAfterSeconds) } : undefined;
  return data({ ...(extra as T), errors }, { status: FAILURE_STATUS[result.code], headers });
}
