import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import { referral } from "#db/schema/quests";
import type { Services } from "~/services/services.server";
import { sendSignInEmail, signInWithCode } from "~/modules/auth/sign-in.server";
import { createTestServices } from "#tests/setup/test-services";
import { recordReferral, referrerFromCookie, referrerFromUrl } from "./referrals.server";

let services: Services;
beforeAll(async () => {
  services = await createTestServices();
  await services.database.db.insert(user).values({ id: "referrer-0001", email: "host@example.com", name: "Host" });
});
afterAll(() => services.close());

const request = (cookie?: string) =>
  new Request("http://localhost:3000/login", {
    method: "POST",
    headers: { origin: "http://localhost:3000", "x-questline-client-ip": "10.3.0.1", ...(cookie ? { cookie } : {}) },
  });

describe("referrals", () => {
  it("count a member who signs up through an invite link, once", async () => {
    const email = "guest@example.com";
    expect(await sendSignInEmail(services, { request: request("ref=referrer-0001"), email, redirectTo: "/" })).toEqual({ ok: true });
    const [mail] = await services.database.db.select().from(devMail).where(eq(devMail.to, email));
    const code = /code: (\d{6})/.exec(mail!.text)![1]!;
    expect((await signInWithCode(services, { request: request("a=1; ref=referrer-0001"), email, code })).ok).toBe(true);
    const [guest] = await services.database.db.select().from(user).where(eq(user.email, email));
    expect(await services.database.db.select().from(referral).where(eq(referral.referredId, guest!.id))).toMatchObject([{ referrerId: "referrer-0001" }]);
    expect(await recordReferral({ db: services.database.db, referrerId: "referrer-0001", referredId: guest!.id })).toBe(false);
  });

  it("ignore oneself, unknown members and malformed values", async () => {
    expect(await recordReferral({ db: services.database.db, referrerId: "referrer-0001", referredId: "referrer-0001" })).toBe(false);
    expect(await recordReferral({ db: services.database.db, referrerId: "nobody-0000", referredId: "referrer-0001" })).toBe(false);
    expect(referrerFromCookie("ref=<script>")).toBeNull();
    expect(referrerFromUrl(new URL("http://x/?ref=abc"))).toBeNull();
    expect(referrerFromUrl(new URL("http://x/?ref=referrer-0001"))).toBe("referrer-0001");
  });
});
