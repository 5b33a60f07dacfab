/**
 * A fake mail server for the e2e tests: it accepts real SMTP (the app sends through nodemailer,
 * exactly as in production) and shows what it received over a small HTTP JSON API.
 *
 *   node tests/fakes/smtp-inbox.ts
 *
 *   GET /health                 200 once both servers listen
 *   GET /messages?to=<address>  the messages for that address, oldest first:
 *                               [{ to, subject, text, receivedAt }]
 *   DELETE /messages            forgets every message
 *
 * Ports: SMTP_INBOX_PORT (2526) and SMTP_INBOX_HTTP_PORT (3199), on 127.0.0.1 only.
 */
import { createServer } from "node:http";
import { SMTPServer } from "smtp-server";
import { parseMail } from "./mime.ts";

const HOST = "127.0.0.1";
const SMTP_PORT = Number(process.env.SMTP_INBOX_PORT ?? 2526);
const HTTP_PORT = Number(process.env.SMTP_INBOX_HTTP_PORT ?? 3199);
const MAX_MESSAGE_BYTES = 1024 * 1024;

export type InboxMessage = { to: string; subject: string; text: string; receivedAt: string };

let messages: InboxMessage[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  size: MAX_MESSAGE_BYTES,
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (stream.sizeExceeded) return callback(Object.assign(new Error("Message too large"), { responseCode: 552 }));
      const mail = parseMail(Buffer.concat(chunks).toString("utf8"));
      const receivedAt = new Date().toISOString();
      // One entry per envelope recipient: that is who the message was delivered to.
      for (const rcpt of session.envelope.rcptTo) {
        messages.push({ to: rcpt.address.toLowerCase(), subject: mail.subject, text: mail.text, receivedAt });
      }
      callback();
    });
  },
});

const http = createServer((req, res) => {
  const url = new URL(req.url ?? "/", `http://${HOST}:${HTTP_PORT}`);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/health" && req.method === "GET") return json(200, { status: "ok" });
  if (url.pathname === "/messages" && req.method === "GET") {
    const to = url.searchParams.get("to")?.trim().toLowerCase();
    return json(200, to ? messages.filter((m) => m.to === to) : messages);
  }
  if (url.pathname === "/messages" && req.method === "DELETE") {
    messages = [];
    return json(200, { status: "ok" });
  }
  json(404, { error: "not found" });
});

function listen(server: { listen: (port: number, host: string, cb: () => void) => unknown }, port: number) {
  return new Promise<void>((resolve) => server.listen(port, HOST, resolve));
}

await Promise.all([listen(smtp, SMTP_PORT), listen(http, HTTP_PORT)]);
console.log(`smtp-inbox: SMTP on ${HOST}:${SMTP_PORT}, HTTP on http://${HOST}:${HTTP_PORT}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    http.close();
    smtp.close(() => process.exit(0));
  });
}
