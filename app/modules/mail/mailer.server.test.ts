import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMail } from "#db/schema/mail";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSmtpCapture } from "#tests/setup/smtp-capture";
import { createMailer } from "./mailer.server";
import { listDevMail } from "./dev-inbox.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const mail = { to: "ada@example.com", subject: "Hello", text: "Plain body — with a long line ".repeat(5), html: "<p>Hi</p>" };

describe("the mailer", () => {
  it("speaks SMTP to the configured server", async () => {
    const smtp = await startSmtpCapture();
    try {
      const mailer = createMailer({ smtpUrl: smtp.url, from: "Questline <no-reply@questline.local>", db: database.db, logger: createLogger("silent") });
      expect(mailer.transport).toBe("smtp");
      await mailer.send(mail);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]).toMatchObject({ to: ["ada@example.com"], subject: "Hello" });
      expect(smtp.mails[0]!.text.trim()).toBe(mail.text.trim());
      expect(await database.db.select().from(devMail)).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it("reports a mail server that does not answer", async () => {
    const mailer = createMailer({ smtpUrl: "smtp://127.0.0.1:1", from: "x@y.z", db: database.db, logger: createLogger("silent") });
    await expect(mailer.send(mail)).rejects.toThrow();
  });

  it("keeps mail in the dev inbox when no SMTP server is configured", async () => {
    const mailer = createMailer({ from: "x@y.z", db: database.db, logger: createLogger("silent") });
    expect(mailer.transport).toBe("dev-inbox");
    await mailer.send(mail);
    const [kept] = await listDevMail({ db: database.db });
    expect(kept).toMatchObject({ to: "ada@example.com", subject: "Hello", html: "<p>Hi</p>" });
  });
});
