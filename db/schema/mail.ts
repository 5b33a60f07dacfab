import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** The development inbox: mail kept here instead of sent when no SMTP server is configured. */
export const devMail = pgTable(
  "dev_mail",
  {
    id: serial("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("dev_mail_created_at_idx").on(t.createdAt)],
);
