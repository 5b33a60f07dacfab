import { makeSignature } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "#db/schema/auth";
import type { Services } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { signedInMember } from "#tests/setup/route-call";
import { readSession } from "./session.server";

let services: Services;
beforeAll(async () => {
  services = await createTestServices();
});
afterAll(async () => {
  await services.database.close();
});

const DAY = 24 * 60 * 60 * 1000;
let counter = 0;
const headersOf = (cookie: string) => new Headers({ cookie });
const read = (cookie: string, now?: number) => readSession({ auth: services.auth, db: services.database.db }, headersOf(cookie), now);
const betterAuthAnswer = (cookie: string) => services.auth.api.getSession({ headers: headersOf(cookie) });

async function member() {
  const id = `session-reader-${++counter}`;
  const { cookie } = await signedInMember(services, id);
  const [row] = await services.database.db.select().from(session).where(eq(session.userId, id));
  return { id, cookie, token: row!.token };
}

/** The cookie's name and a token signed with `secret`, as a browser would send it. */
async function cookieFor(token: string, secret: string) {
  const { authCookies } = await services.auth.$context;
  return `${authCookies.sessionToken.name}=${encodeURIComponent(`${token}.${await makeSignature(token, secret)}`)}`;
}

describe("reading the session a request carries", () => {
  it("answers a live session exactly as better-auth does, member fields included", async () => {
    const { id, cookie } = await member();
    await services.database.db.update(user).set({ username: "reader", image: "/avatars/reader.png" }).where(eq(user.id, id));
    const ours = await read(cookie);
    expect(ours?.user).toMatchObject({ id, username: "reader", image: "/avatars/reader.png" });
    expect(ours).toEqual(await betterAuthAnswer(cookie));
  });

  it("reads the member anew on every request: a change shows on the next one", async () => {
    const { id, cookie } = await member();
    expect((await read(cookie))?.user.name).toBe(id);
    await services.database.db.update(user).set({ name: "Renamed" }).where(eq(user.id, id));
    expect((await read(cookie))?.user.name).toBe("Renamed");
  });

  it("refuses a token signed with another secret, a tampered signature, an unsigned token and an unknown token", async () => {
    const { token, cookie } = await member();
    const { authCookies } = await services.auth.$context;
    const name = authCookies.sessionToken.name;
    const signature = await makeSignature(token, services.env.AUTH_SECRET);
    const tampered = `${name}=${encodeURIComponent(`${token}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`)}`;
    for (const bad of [
      await cookieFor(token, "another-secret-0123456789abcdefghijklmnopqrstuvwxyz"),
      tampered,
      `${name}=${token}`,
      `${name}=${encodeURIComponent(`${token}.`)}`,
      await cookieFor("no-such-token", services.env.AUTH_SECRET),
    ])
      expect(await read(bad)).toBeNull();
    expect(await read(cookie)).not.toBeNull();
  });

  it("answers nothing for a session signed out (deleted)", async () => {
    const { token, cookie } = await member();
    await services.database.db.delete(session).where(eq(session.token, token));
    expect(await read(cookie)).toBeNull();
  });

  it("leaves an expired session to better-auth, which answers nothing and deletes it", async () => {
    const { token, cookie } = await member();
    await services.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, token));
    expect(await read(cookie)).toBeNull();
    expect(await services.database.db.select().from(session).where(eq(session.token, token))).toHaveLength(0);
  });

  it("leaves a session due for its daily renewal to better-auth, which renews it", async () => {
    const { token, cookie } = await member();
    const { sessionConfig } = await services.auth.$context;
    // Started two days ago: its expiry is two days short of a full term, past the one-day renewal age.
    const expiresAt = new Date(Date.now() + sessionConfig.expiresIn * 1000 - 2 * DAY);
    await services.database.db.update(session).set({ expiresAt }).where(eq(session.token, token));
    const answered = await read(cookie);
    expect(answered?.session.token).toBe(token);
    const [renewed] = await services.database.db.select().from(session).where(eq(session.token, token));
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(expiresAt.getTime() + DAY);
  });

  it("does not renew a session short of its renewal age, and answers it until it is due", async () => {
    const { token, cookie } = await member();
    const [before] = await services.database.db.select().from(session).where(eq(session.token, token));
    const { sessionConfig } = await services.auth.$context;
    const dueAt = before!.expiresAt.getTime() - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000;
    expect((await read(cookie, dueAt - 1000))?.session.token).toBe(token);
    const [after] = await services.database.db.select().from(session).where(eq(session.token, token));
    expect(after!.expiresAt).toEqual(before!.expiresAt);
  });
});
