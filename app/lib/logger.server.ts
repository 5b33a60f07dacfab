import pino from "pino";

export type Logger = pino.Logger;

/** JSON logs on stdout. Secrets never reach them: auth headers and cookies are redacted. */
export function createLogger(level: string = "info"): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.otp", "*.token"], remove: true },
  });
}
