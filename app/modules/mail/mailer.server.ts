import nodemailer from "nodemailer";
import { devMail } from "#db/schema/mail";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header lines (`List-Unsubscribe`, …); the dev inbox keeps none. */
  headers?: Record<string, string>;
};
export type Mailer = { send: (mail: Mail) => Promise<void>; transport: "smtp" | "dev-inbox" };

/**
 * Sends mail over SMTP when `smtpUrl` is set; otherwise keeps it in the development inbox
 * (listed at /dev/mail) and logs it. Production refuses to start without SMTP (see env).
 */
export function createMailer({ smtpUrl, from, db, logger }: { smtpUrl?: string; from: string; db: Db; logger: Logger }): Mailer {
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      transport: "smtp",
      async send(mail) {
        await transporter.sendMail({ from, ...mail });
        logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
    };
  }
  return {
    transport: "dev-inbox",
    async send(mail) {
      await db.insert(devMail).values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      logger.info({ to: mail.to, subject: mail.subject, text: mail.text }, "mail kept in the dev inbox (/dev/mail)");
    },
  };
}
