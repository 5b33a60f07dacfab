import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { IMAGE_MAX_BYTES } from "~/lib/images";
import { deleteAvatar, readAvatar, saveAvatar } from "./avatar.server";
import { profileSchema } from "./profile.schema";
import { getProfile, updateProfile } from "./profile.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values([
    { id: "u1", email: "one@example.com", name: "One" },
    { id: "u2", email: "two@example.com", name: "Two" },
  ]);
});
afterAll(() => database.close());

describe("profiles", () => {
  it("saves name and username and reports whether a password is set", async () => {
    const db = database.db;
    expect(await updateProfile({ db, userId: "u1", name: "Ada", username: "ada" })).toEqual({ ok: true });
    expect(await getProfile({ db, userId: "u1" })).toMatchObject({ name: "Ada", username: "ada", hasPassword: false });
    await db.insert(account).values({ id: "a1", accountId: "u1", providerId: "credential", userId: "u1", password: "hash" });
    expect(await getProfile({ db, userId: "u1" })).toMatchObject({ hasPassword: true });
  });

  it("keeps usernames unique, even when two members race for one", async () => {
    const db = database.db;
    expect(await updateProfile({ db, userId: "u2", name: "Two", username: "ada" })).toEqual({
      ok: false,
      code: "invalid",
      errors: { username: "That username is taken" },
    });
    const race = await Promise.all([
      updateProfile({ db, userId: "u1", name: "Ada", username: "grace" }),
      updateProfile({ db, userId: "u2", name: "Two", username: "grace" }),
    ]);
    expect(race.filter((r) => r.ok)).toHaveLength(1);
  });

  it("validates usernames", () => {
    const parse = (username: string) => profileSchema.safeParse({ name: "x", username });
    expect(parse("Good_Name1").success).toBe(true);
    expect(parse("Good_Name1").data?.username).toBe("good_name1");
    expect(parse("a b!").error?.issues[0]?.message).toBe("Use only letters, digits and underscores");
    expect(parse("ab").error?.issues[0]?.message).toBe("A username has at least 3 characters");
    expect(parse("admin").error?.issues[0]?.message).toBe("That username is reserved");
  });
});

describe("avatars", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-avatars-"));
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

  it("stores a real image under the data folder with a fresh name", async () => {
    const saved = await saveAvatar({ dataDir, userId: "u1", file: new File([png], "me.png", { type: "image/png" }) });
    expect(saved.ok).toBe(true);
    const url = saved.ok ? saved.url : "";
    expect(url).toMatch(/^\/avatars\/u1-[0-9a-f]{12}\.png$/);
    const read = await readAvatar({ dataDir, name: url.slice("/avatars/".length) });
    expect(read?.type).toBe("image/png");
    await deleteAvatar({ dataDir, url });
    expect(readdirSync(path.join(dataDir, "avatars"))).toHaveLength(0);
  });

  it("judges the type by the bytes, not by the name", async () => {
    const fake = new File(["<script>alert(1)</script>"], "evil.png", { type: "image/png" });
    expect(await saveAvatar({ dataDir, userId: "u1", file: fake })).toEqual({
      ok: false,
      code: "invalid",
      errors: { avatar: "Choose a PNG, JPEG, GIF or WebP image" },
    });
  });

  it("refuses files over 2 MB and empty ones", async () => {
    const big = new File([png, new Uint8Array(IMAGE_MAX_BYTES)], "big.png");
    expect(await saveAvatar({ dataDir, userId: "u1", file: big })).toEqual({
      ok: false,
      code: "invalid",
      errors: { avatar: "Choose an image of at most 2 MB" },
    });
    expect(await saveAvatar({ dataDir, userId: "u1", file: new File([], "empty.png") })).toEqual({
      ok: false,
      code: "invalid",
      errors: { avatar: "That file is empty" },
    });
  });

  it("never reads outside the avatars folder", async () => {
    expect(await readAvatar({ dataDir, name: "../auth-secret" })).toBeNull();
    expect(await readAvatar({ dataDir, name: "missing-000000000000.png" })).toBeNull();
  });
});
