import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_DEFAULTS, socialConfigFromEnv } from "./social-config.server";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "questline-social-"));

describe("social providers' configuration", () => {
  it("offers no provider without configuration, and keeps a generated key in the data folder for the local trial", () => {
    const dir = dataDir();
    const config = socialConfigFromEnv({}, { isPublic: false, dataDir: dir });
    expect(config.providers).toEqual({});
    expect(config.tokenKey).toHaveLength(32);
    expect(readFileSync(path.join(dir, "social-token-key"), "utf8")).toBe(config.tokenKey.toString("hex"));
    expect(socialConfigFromEnv({}, { isPublic: false, dataDir: dir }).tokenKey.equals(config.tokenKey)).toBe(true);
  });

  it("offers a provider with its id and secret, at the real endpoints unless told otherwise", () => {
    const config = socialConfigFromEnv(
      {
        X_CLIENT_ID: "id",
        X_CLIENT_SECRET: "secret",
        YOUTUBE_CLIENT_ID: "yid",
        YOUTUBE_CLIENT_SECRET: "ys",
        YOUTUBE_API_URL: "http://127.0.0.1:9/youtube/v3/",
      },
      { isPublic: false, dataDir: dataDir() },
    );
    expect(config.providers.x).toEqual({ clientId: "id", clientSecret: "secret", ...PROVIDER_DEFAULTS.x });
    expect(config.providers.youtube?.apiUrl).toBe("http://127.0.0.1:9/youtube/v3");
    expect(config.providers.tiktok).toBeUndefined();
  });

  it("stops the start with one line for half a client, a bad URL or a bad key", () => {
    const options = { isPublic: false, dataDir: dataDir() };
    expect(() => socialConfigFromEnv({ TIKTOK_CLIENT_ID: "id" }, options)).toThrow(
      "Invalid configuration: TIKTOK_CLIENT_SECRET is required with TIKTOK_CLIENT_ID",
    );
    expect(() => socialConfigFromEnv({ X_CLIENT_ID: "a", X_CLIENT_SECRET: "b", X_TOKEN_URL: "ftp://x" }, options)).toThrow("X_TOKEN_URL");
    expect(() => socialConfigFromEnv({ SOCIAL_TOKEN_KEY: "too-short" }, options)).toThrow("SOCIAL_TOKEN_KEY must be 32 bytes");
    expect(socialConfigFromEnv({ SOCIAL_TOKEN_KEY: "ab".repeat(32) }, options).tokenKey.toString("hex")).toBe("ab".repeat(32));
  });

  it("reads only the endpoints the README documents, each of them used: the profile is read through the REST API", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "../../../README.md"), "utf8");
    const documented = [...new Set(readme.match(/\bX_[A-Z]+_URL\b/g))].sort();
    expect(documented).toEqual(["X_API_URL", "X_AUTHORIZE_URL", "X_TOKEN_URL"]);
    const options = { isPublic: false, dataDir: dataDir() };
    for (const name of documented) expect(() => socialConfigFromEnv({ X_CLIENT_ID: "a", X_CLIENT_SECRET: "b", [name]: "ftp://x" }, options)).toThrow(name);
    // A variable the configuration does not have is not read, so it cannot look as if it did something.
    expect(socialConfigFromEnv({ X_CLIENT_ID: "a", X_CLIENT_SECRET: "b", X_USERINFO_URL: "ftp://x" }, options).providers.x).toEqual({
      clientId: "a",
      clientSecret: "b",
      ...PROVIDER_DEFAULTS.x,
    });
    expect(Object.keys(PROVIDER_DEFAULTS.x).sort()).toEqual(["apiUrl", "authorizeUrl", "tokenUrl"]);
  });

  it("requires SOCIAL_TOKEN_KEY when served publicly with a provider", () => {
    const options = { isPublic: true, dataDir: dataDir() };
    expect(() => socialConfigFromEnv({ X_CLIENT_ID: "a", X_CLIENT_SECRET: "b" }, options)).toThrow("SOCIAL_TOKEN_KEY is required in production");
    expect(socialConfigFromEnv({ X_CLIENT_ID: "a", X_CLIENT_SECRET: "b", SOCIAL_TOKEN_KEY: Buffer.alloc(32, 7).toString("base64") }, options).tokenKey).toEqual(
      Buffer.alloc(32, 7),
    );
  });
});
