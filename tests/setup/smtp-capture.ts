import { SMTPServer } from "smtp-server";

export type CapturedMail = { to: string[]; raw: string; subject: string; text: string };

/** Decodes the text/plain part of a message as nodemailer writes it (7bit, quoted-printable or base64). */
export function plainTextOf(raw: string): { subject: string; text: string } {
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?(?:Content-Transfer-Encoding: ([\w-]+)\r?\n)?(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw);
  const encoding = part?.[1]?.toLowerCase();
  const body = part?.[2] ?? "";
  if (encoding === "base64") return { subject, text: Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") };
  if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return { subject, text: Buffer.from(bytes, "latin1").toString("utf8") };
  }
  return { subject, text: body };
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startSmtpCapture() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, ...plainTextOf(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address: string) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
