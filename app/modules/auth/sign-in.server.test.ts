import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { emailCodeCooldown, user, verification } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import type { Services } from "~/services/services.server";
import { browserRequest, createTestServices } from "#tests/setup/test-services";
import { startSmtpCapture } from "#tests/setup/smtp-capture";
import { sendSignInEmail, signInWithCode, signInWithPassword } from "./sign-in.server";

let services: Services;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let counter = 0;
const newEmail = () => `member${++counter}-${Date.now()}@example.com`;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  services = await createTestServices({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await services.database.close();
  await smtp.close();
});

async function requestEmail(email: string, redirectTo = "/dashboard") {
  const result = await sendSignInEmail(services, { request: browserRequest(services), email, redirectTo });
  expect(result).toEqual({ ok: true });
  const [mail] = smtp.to(email).slice(-1);
  expect(mail).toBeDefined();
  const code = /code: (\d{6})/.exec(mail!.text)?.[1];
  const link = /(http:\/\/localhost:3000\/api\/auth\/magic-link\/verify\?\S+)/.exec(mail!.text)?.[1];
  return { mail: mail!, code: code!, link: link! };
}

/** Moves a stored cooldown back in time, as if the 30 seconds had passed. */
async function expireCooldown(email: string) {
  await services.database.db
    .update(emailCodeCooldown)
    .set({ sentAt: new Date(Date.now() - 31_000) })
    .where(eq(emailCodeCooldown.email, email));
}

function cookieHeader(headers: Headers) {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("the sign-in e-mail", () => {
  it("is one e-mail holding both a magic link and a 6-digit code", async () => {
    const email = newEmail();
    const { mail, code, link } = await requestEmail(email);
    expect(smtp.to(email)).toHaveLength(1);
    expect(mail.subject).toContain(code);
    expect(code).toMatch(/^\d{6}$/);
    expect(link).toContain("token=");
    expect(mail.text).toContain("expires in 15 minutes");
    expect(mail.text).toContain("valid for 10 minutes");
  });

  it("keeps neither the code nor the link token in plain text", async () => {
    const email = newEmail();
    const { code, link } = await requestEmail(email);
    const token = new URL(link).searchParams.get("token")!;
    const rows = await services.database.db.select().from(verification);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(rows.some((r) => r.identifier.includes(email))).toBe(true);
    expect(rows.filter((r) => r.identifier.includes(email)).every((r) => !r.value.startsWith(`${code}:`))).toBe(true);
  });

  it("is sent at most once every 30 seconds per address, with the wait in the message", async () => {
    const email = newEmail();
    await requestEmail(email);
    const again = await sendSignInEmail(services, { request: browserRequest(services), email: email.toUpperCase(), redirectTo: "/" });
    expect(again.ok).toBe(false);
    expect(again).toMatchObject({ ok: false, code: "limited", message: expect.stringMatching(/^Please try again after (30|29|28) seconds$/) });
    expect(smtp.to(email)).toHaveLength(1);

    await expireCooldown(email);
    await requestEmail(email);
    expect(smtp.to(email)).toHaveLength(2);
  });

  it("holds the 30-second rule on better-auth's own endpoints too", async () => {
    const email = newEmail();
    await requestEmail(email);
    for (const [path, body] of [
      ["/email-otp/send-verification-otp", { email, type: "sign-in" }],
      ["/sign-in/magic-link", { email, callbackURL: "/" }],
    ] as const) {
      const response = await services.auth.handler(
        new Request(`http://localhost:3000/api/auth${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-questline-client-ip": "10.9.9.9" },
          body: JSON.stringify(body),
        }),
      );
      expect(response.status).toBe(429);
      expect(((await response.json()) as { message: string }).message).toMatch(/^Please try again after \d+ seconds$/);
    }
    expect(smtp.to(email)).toHaveLength(1);
  });
});

describe("signing in with the code", () => {
  it("creates the account on first sign-in and sets an HttpOnly, SameSite=Lax session cookie", async () => {
    const email = newEmail();
    const { code } = await requestEmail(email);
    const result = await signInWithCode(services, { request: browserRequest(services), email, code });
    expect(result.ok).toBe(true);
    const cookie = result.ok ? result.headers.getSetCookie().find((c) => c.includes("session_token")) : undefined;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const [created] = await services.database.db.select().from(user).where(eq(user.email, email));
    expect(created?.emailVerified).toBe(true);

    const me = await services.auth.api.getSession({ headers: new Headers({ cookie: cookieHeader(result.ok ? result.headers : new Headers()) }) });
    expect(me?.user.email).toBe(email);
  });

  it("voids the code after five wrong tries", async () => {
    const email = newEmail();
    const { code } = await requestEmail(email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const attempt = await signInWithCode(services, { request: browserRequest(services), email, code: wrong });
      expect(attempt).toEqual({ ok: false, code: "invalid", errors: { code: "That code is not right. Check the e-mail and try again." } });
    }
    const right = await signInWithCode(services, { request: browserRequest(services), email, code });
    expect(right).toEqual({ ok: false, code: "invalid", errors: { code: "Too many wrong codes. This code no longer works: send a new one." } });
    expect(await services.database.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it("refuses a code older than 10 minutes", async () => {
    const email = newEmail();
    const { code } = await requestEmail(email);
    await services.database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verification.identifier, `%${email}%`));
    const result = await signInWithCode(services, { request: browserRequest(services), email, code });
    expect(result).toEqual({ ok: false, code: "invalid", errors: { code: "That code has expired. Send a new one." } });
  });

  it("sets codes to expire in 10 minutes and links in 15", async () => {
    const email = newEmail();
    const before = Date.now();
    await requestEmail(email);
    const rows = await services.database.db.select().from(verification);
    const otp = rows.find((r) => r.identifier.includes(email));
    const link = rows.find((r) => r.identifier.startsWith("magic-link:") && r.value.includes(email));
    expect(otp!.expiresAt.getTime() - before).toBeGreaterThan(9.9 * 60_000);
    expect(otp!.expiresAt.getTime() - before).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    expect(link!.expiresAt.getTime() - before).toBeGreaterThan(14.9 * 60_000);
    expect(link!.expiresAt.getTime() - before).toBeLessThanOrEqual(15 * 60_000 + 5_000);
  });
});

describe("the magic link", () => {
  it("signs in once and redirects to where the member was going", async () => {
    const email = newEmail();
    const { link } = await requestEmail(email, "/settings/password");
    const first = await services.auth.handler(new Request(link));
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("http://localhost:3000/settings/password");
    expect(first.headers.getSetCookie().some((c) => c.includes("session_token"))).toBe(true);

    const second = await services.auth.handler(new Request(link));
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toContain("/login?error=");
    expect(second.headers.getSetCookie().some((c) => c.includes("session_token="))).toBe(false);
  });
});

describe("passwords", () => {
  it("cannot sign up by password: an address with no account is refused", async () => {
    const response = await services.auth.handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email: newEmail(), password: "long enough password", name: "x" }),
      }),
    );
    expect(response.ok).toBe(false);
  });

  it("signs in with a password once one is set", async () => {
    const email = newEmail();
    const { code } = await requestEmail(email);
    const signedIn = await signInWithCode(services, { request: browserRequest(services), email, code });
    const headers = new Headers({ cookie: cookieHeader(signedIn.ok ? signedIn.headers : new Headers()) });

    expect(await signInWithPassword(services, { request: browserRequest(services), email, password: "correct horse" })).toEqual({
      ok: false,
      code: "invalid",
      errors: { password: "Wrong e-mail or password." },
    });
    await services.auth.api.setPassword({ body: { newPassword: "correct horse" }, headers });
    const result = await signInWithPassword(services, { request: browserRequest(services), email, password: "correct horse" });
    expect(result.ok).toBe(true);
    const wrong = await signInWithPassword(services, { request: browserRequest(services), email, password: "wrong horse" });
    expect(wrong).toEqual({ ok: false, code: "invalid", errors: { password: "Wrong e-mail or password." } });
  });
});

describe("sessions over https", () => {
  it("are Secure cookies when the site is served over https", async () => {
    const secure = await createTestServices({ APP_URL: "https://questline.example" });
    try {
      const email = newEmail();
      const request = () => browserRequest(secure);
      expect(await sendSignInEmail(secure, { request: request(), email, redirectTo: "/" })).toEqual({ ok: true });
      const [mail] = await secure.database.db.select().from(devMail);
      const code = /code: (\d{6})/.exec(mail!.text)![1]!;
      const result = await signInWithCode(secure, { request: request(), email, code });
      const cookie = result.ok ? result.headers.getSetCookie().find((c) => c.includes("session_token")) : undefined;
      expect(cookie).toMatch(/^__Secure-/);
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await secure.database.close();
    }
  });
});

describe("limits that hold back abuse without locking a room out", () => {
  it("gives every path that mails an address the same 30 s cooldown, and sends no reset codes", async () => {
    const email = newEmail();
    await requestEmail(email);
    for (const path of ["/email-otp/request-password-reset", "/forget-password/email-otp", "/email-otp/send-verification-otp"]) {
      const response = await services.auth.handler(
        new Request(`http://localhost:3000/api/auth${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-questline-client-ip": "10.9.9.9" },
          body: JSON.stringify({ email, type: "sign-in" }),
        }),
      );
      expect(response.status, path).toBe(429);
    }
    expect(smtp.to(email)).toHaveLength(1);
    // Past the cooldown a reset request still mails nothing: the product has no password reset.
    await expireCooldown(email);
    await services.auth.handler(
      new Request("http://localhost:3000/api/auth/email-otp/request-password-reset", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-questline-client-ip": "10.9.9.9" },
        body: JSON.stringify({ email }),
      }),
    );
    expect(smtp.to(email)).toHaveLength(1);
  });

  it("limits password guesses per account, whatever address they come from", async () => {
    const email = newEmail();
    const { code } = await requestEmail(email);
    const signedIn = await signInWithCode(services, { request: browserRequest(services), email, code });
    const headers = new Headers({ cookie: cookieHeader(signedIn.ok ? signedIn.headers : new Headers()) });
    await services.auth.api.setPassword({ body: { newPassword: "correct horse" }, headers });

    // The clock stands still while the guesses come in, however long each takes on a busy machine:
    // the first wait after five wrong guesses is a second, which a slow guess would outlast.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    const answers = [];
    for (let i = 0; i < 8; i++) {
      // A new client address for each guess, as behind a proxy that forwards rotating addresses.
      answers.push(await signInWithPassword(services, { request: browserRequest(services, "/login", `10.77.${i}.1`), email, password: `guess ${i}` }));
    }
    expect(answers.slice(0, 5).every((a) => !a.ok && a.code === "invalid" && a.errors.password === "Wrong e-mail or password.")).toBe(true);
    expect(answers[5]).toEqual({
      ok: false,
      code: "limited",
      message: expect.stringMatching(/^Too many attempts for this account\. Try again in \d+ seconds?\.$/),
      retryAfterSeconds: expect.any(Number),
    });
    // Even the right password waits its turn; the account is not locked for good (see account-guesses tests).
    expect(await signInWithPassword(services, { request: browserRequest(services), email, password: "correct horse" })).toMatchObject({ ok: false });
  });

  it("lets 50 people behind one address sign in within 5 minutes", async () => {
    const room = "10.50.50.50";
    const emails = Array.from({ length: 50 }, () => newEmail());
    let signedIn = 0;
    for (const email of emails) {
      const sent = await sendSignInEmail(services, { request: browserRequest(services, "/login", room), email, redirectTo: "/" });
      expect(sent, email).toEqual({ ok: true });
      const code = /code: (\d{6})/.exec(smtp.to(email).at(-1)!.text)![1]!;
      const result = await signInWithCode(services, { request: browserRequest(services, "/login", room), email, code });
      if (result.ok) signedIn += 1;
    }
    expect(signedIn).toBe(50);
  });
});
