import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { notification } from "#db/schema/reach";
import type { Database, Db } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { createMailer } from "~/modules/mail/mailer.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSmtpCapture } from "#tests/setup/smtp-capture";
import { sendDigests, sendNotificationMails } from "./mail.server";
import { notificationSettings, turnOffEmail } from "./preferences.server";
import { readUnsubscribeToken, unsubscribeToken } from "./unsubscribe.server";

let database: Database;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
const secret = "s".repeat(40);
const logger = createLogger("silent");
const base = { appName: "Lumen Quests", appUrl: "https://quests.example", secret, logger };
const now = new Date("2026-11-29T10:00:00Z");
let seq = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  smtp = await startSmtpCapture();
  await db.insert(user).values(["ann", "bob", "cy", "dee"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

const mailer = () => createMailer({ smtpUrl: smtp.url, from: "Lumen <no-reply@quests.example>", db, logger });
const deadMailer = () => createMailer({ smtpUrl: "smtp://127.0.0.1:1", from: "x@y.z", db, logger });
const add = (userId: string, mail: "pending" | "digest", title = `Note ${++seq}`) =>
  db
    .insert(notification)
    .values({ userId, kind: "review", dedupe: `n-${++seq}`, title, body: "Your completion was approved.", link: "/tasks/t", mail, createdAt: now })
    .returning({ id: notification.id })
    .then(([row]) => row!.id);
const rowOf = async (id: number) => (await db.select().from(notification).where(eq(notification.id, id)))[0]!;
const unfolded = (raw: string) => raw.replace(/\r?\n[ \t]+/g, " ");

describe("notification mails", () => {
  it("sends a pending notification once, with a plain-text part, the product's name and RFC 8058 unsubscribe headers", async () => {
    const id = await add("ann", "pending", "Approved: Post a photo");
    expect(await sendNotificationMails({ db, mailer: mailer(), ...base, now, maxPerHour: 6 })).toEqual({ sent: 1, failed: 0, toDigest: 0 });
    expect(await sendNotificationMails({ db, mailer: mailer(), ...base, now, maxPerHour: 6 })).toEqual({ sent: 0, failed: 0, toDigest: 0 });
    const [mail] = smtp.to("ann@example.com");
    expect(smtp.to("ann@example.com")).toHaveLength(1);
    expect(mail!.subject).toBe("Approved: Post a photo · Lumen Quests");
    expect(mail!.text).toContain("Your completion was approved.");
    expect(mail!.text).toContain("https://quests.example/tasks/t");
    const raw = unfolded(mail!.raw);
    const link = raw.match(/^List-Unsubscribe: <(https:\/\/quests\.example\/unsubscribe\/[^>]+)>$/im)?.[1];
    expect(link).toBeDefined();
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    expect(readUnsubscribeToken({ secret, token: link!.split("/").at(-1)! })).toEqual({ userId: "ann", scope: "review" });
    expect(await rowOf(id)).toMatchObject({ mail: "sent", mailAttempts: 1, mailedAt: now });
  });

  it("sends a member at most maxPerHour mails an hour; the rest wait for the digest", async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await add("bob", "pending"));
    expect(await sendNotificationMails({ db, mailer: mailer(), ...base, now, maxPerHour: 2 })).toMatchObject({ sent: 2, toDigest: 3 });
    expect(smtp.to("bob@example.com")).toHaveLength(2);
    expect((await Promise.all(ids.map(rowOf))).map((r) => r.mail)).toEqual(["sent", "sent", "digest", "digest", "digest"]);
    // Within the hour, a new one waits too; an hour later, it goes.
    const later = await add("bob", "pending");
    await sendNotificationMails({ db, mailer: mailer(), ...base, now: new Date(now.getTime() + 30 * 60_000), maxPerHour: 2 });
    expect((await rowOf(later)).mail).toBe("digest");
    const next = await add("bob", "pending");
    await sendNotificationMails({ db, mailer: mailer(), ...base, now: new Date(now.getTime() + 61 * 60_000), maxPerHour: 2 });
    expect((await rowOf(next)).mail).toBe("sent");
  });

  it("tries a refused send again on the next run, gives up after five attempts, and never resends one whose run died", async () => {
    const id = await add("cy", "pending");
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await sendNotificationMails({ db, mailer: deadMailer(), ...base, now, maxPerHour: 100 })).toMatchObject({ sent: 0, failed: 1 });
      expect(await rowOf(id)).toMatchObject({ mail: "pending", mailAttempts: attempt, mailedAt: null });
    }
    await sendNotificationMails({ db, mailer: deadMailer(), ...base, now, maxPerHour: 100 });
    expect(await rowOf(id)).toMatchObject({ mail: "failed", mailAttempts: 5 });

    const retried = await add("cy", "pending");
    await sendNotificationMails({ db, mailer: deadMailer(), ...base, now, maxPerHour: 100 });
    await sendNotificationMails({ db, mailer: mailer(), ...base, now, maxPerHour: 100 });
    expect(await rowOf(retried)).toMatchObject({ mail: "sent", mailAttempts: 2 });
    expect(smtp.to("cy@example.com")).toHaveLength(1);

    // Claimed by a run that died before hearing the answer: given up, not sent a second time.
    const orphan = await add("cy", "pending");
    await db.execute(
      sql`update notification set mailed_at = ${new Date(now.getTime() - 20 * 60_000).toISOString()}::timestamptz, mail_attempts = 1 where id = ${orphan}`,
    );
    await sendNotificationMails({ db, mailer: mailer(), ...base, now, maxPerHour: 100 });
    expect((await rowOf(orphan)).mail).toBe("failed");
    expect(smtp.to("cy@example.com")).toHaveLength(1);
  });

  it("sends one digest a day listing what waits, with an unsubscribe-from-all header, and tries a refused one again", async () => {
    await add("dee", "digest", "First thing");
    await add("dee", "digest", "Second thing");
    // dee's two, and bob's three the flood limit sent there.
    expect(await sendDigests({ db, mailer: deadMailer(), ...base, now })).toEqual({ sent: 0, failed: 2 });
    expect(await sendDigests({ db, mailer: mailer(), ...base, now })).toEqual({ sent: 2, failed: 0 });
    const [digest] = smtp.to("dee@example.com");
    expect(digest!.subject).toBe("Your Lumen Quests digest: 2 updates");
    expect(digest!.text.indexOf("Second thing")).toBeLessThan(digest!.text.indexOf("First thing"));
    const link = unfolded(digest!.raw).match(/^List-Unsubscribe: <[^>]+\/unsubscribe\/([^>]+)>$/im)?.[1];
    expect(readUnsubscribeToken({ secret, token: link! })).toEqual({ userId: "dee", scope: "all" });
    await add("dee", "digest", "Third thing");
    expect(await sendDigests({ db, mailer: mailer(), ...base, now: new Date(now.getTime() + 3_600_000) })).toEqual({ sent: 0, failed: 0 });
    expect(await sendDigests({ db, mailer: mailer(), ...base, now: new Date(now.getTime() + 86_400_000) })).toEqual({ sent: 1, failed: 0 });
    expect(smtp.to("dee@example.com").map((m) => m.subject)).toEqual(["Your Lumen Quests digest: 2 updates", "Your Lumen Quests digest: 1 update"]);
    expect(
      smtp
        .to("bob@example.com")
        .filter((m) => m.subject.includes("digest"))
        .map((m) => m.subject),
    ).toEqual(["Your Lumen Quests digest: 4 updates"]);
  });
});

describe("unsubscribe tokens", () => {
  it("name the member and kind they were signed for, and nothing else", () => {
    const token = unsubscribeToken({ secret, userId: "ann", scope: "review" });
    expect(readUnsubscribeToken({ secret, token })).toEqual({ userId: "ann", scope: "review" });
    const [who, , mac] = token.split(".");
    expect(readUnsubscribeToken({ secret, token: `${who}.all.${mac}` })).toBeNull();
    expect(readUnsubscribeToken({ secret, token: `${Buffer.from("bob").toString("base64url")}.review.${mac}` })).toBeNull();
    expect(readUnsubscribeToken({ secret: "t".repeat(40), token })).toBeNull();
    expect(readUnsubscribeToken({ secret, token: `${token}x` })).toBeNull();
    expect(readUnsubscribeToken({ secret, token: "nonsense" })).toBeNull();
  });

  it("turn e-mail off for the kind, and what waited to be mailed is not mailed", async () => {
    const waiting = await add("ann", "pending");
    await turnOffEmail({ db, userId: "ann", kind: "review" });
    expect((await notificationSettings({ db, userId: "ann" })).kinds.find((k) => k.kind === "review")).toEqual({ kind: "review", inbox: true, email: false });
    expect((await notificationSettings({ db, userId: "ann" })).kinds.find((k) => k.kind === "reward")?.email).toBe(true);
    expect((await rowOf(waiting)).mail).toBe("none");
    await turnOffEmail({ db, userId: "ann", kind: "all" });
    expect((await notificationSettings({ db, userId: "ann" })).kinds.every((k) => !k.email)).toBe(true);
  });
});
