import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptToken, encryptToken, isEncryptedToken } from "~/lib/secret-box.server";

describe("social token encryption", () => {
  const key = randomBytes(32);

  it("round-trips a token, never storing it in plaintext, with a fresh nonce each time", () => {
    const token = "ya29.a0AfH6SMBx-secret-access-token";
    const a = encryptToken(key, token);
    const b = encryptToken(key, token);
    expect(a).not.toContain(token);
    expect(a).not.toBe(b);
    expect(isEncryptedToken(a)).toBe(true);
    expect(decryptToken(key, a)).toBe(token);
    expect(decryptToken(key, b)).toBe(token);
  });

  it("refuses a value under another key, a tampered value, or a plaintext one", () => {
    const sealed = encryptToken(key, "token");
    expect(decryptToken(randomBytes(32), sealed)).toBeNull();
    const bytes = Buffer.from(sealed.slice(5), "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(decryptToken(key, `gcm1:${bytes.toString("base64url")}`)).toBeNull();
    expect(decryptToken(key, "token")).toBeNull();
    expect(decryptToken(key, "gcm1:short")).toBeNull();
  });
});
