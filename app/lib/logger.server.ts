import pino from "pino";
import { loggableError } from "./loggable-error";

export type Logger = pino.Logger;

/**
 * JSON logs on stdout (or `destination`). Secrets never reach them: auth headers and cookies are
 * redacted, and a failed statement logged as `err` keeps its database message, never its SQL or
 * parameters.
 */
export function createLogger(level: string = "info", destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.otp", "*.token"], remove: true },
      serializers: { err: (err: unknown) => pino.stdSerializers.err(loggableError(err) as Error) },
    },
    destination,
  );
}
