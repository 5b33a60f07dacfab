import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { notModified, pageCaching, pageEtag } from "./page-cache.server";

const visitor = { method: "GET", status: 200, hasCookies: false, setsCookies: false, signedIn: false, isVisitorPage: true };

describe("pageCaching", () => {
  it("lets shared caches keep a visitor page a few seconds, varying by cookie, with an ETag", () => {
    expect(pageCaching(visitor)).toEqual({ cacheControl: "public, max-age=0, s-maxage=10, stale-while-revalidate=50", vary: "Cookie", etag: true });
  });

  it("never keeps a signed-in member's page, visitor page or not", () => {
    expect(pageCaching({ ...visitor, signedIn: true, hasCookies: true })).toEqual({ cacheControl: "private, no-store", etag: false });
    expect(pageCaching({ ...visitor, signedIn: true, isVisitorPage: false })).toEqual({ cacheControl: "private, no-store", etag: false });
  });

  it("keeps a visitor page with cookies (appearance, a remembered wallet) private, revalidated by its ETag", () => {
    expect(pageCaching({ ...visitor, hasCookies: true })).toEqual({ cacheControl: "private, no-cache", etag: true });
  });

  it("shares nothing that sets a cookie, failed, answered a form, or is not a visitor page", () => {
    for (const other of [{ setsCookies: true }, { status: 404 }, { status: 500 }, { method: "POST" }, { isVisitorPage: false }])
      expect(pageCaching({ ...visitor, ...other }), JSON.stringify(other)).toEqual({ cacheControl: "private, no-cache", etag: false });
  });
});

describe("pageEtag", () => {
  const page = (nonce: string, text = "Season 4") => Buffer.from(`<html><script nonce="${nonce}">1</script><h1>${text}</h1></html>`);

  it("is the same for two renders that differ only in their nonce", () => {
    expect(pageEtag(page("n0nce-a"), "n0nce-a")).toBe(pageEtag(page("n0nce-b"), "n0nce-b"));
    expect(pageEtag(page("n0nce-a"), "n0nce-a")).toMatch(/^W\/"[\w-]+"$/);
  });

  it("changes with the content", () => {
    expect(pageEtag(page("n", "Season 4"), "n")).not.toBe(pageEtag(page("n", "Season 5"), "n"));
  });

  it("is the tag of the page's bytes with every occurrence of the nonce taken out", () => {
    const sha1 = (text: string) => `W/"${createHash("sha1").update(text).digest("base64url")}"`;
    const nonce = "q+8/Zx==";
    const text = `${nonce}<p>Ünïcödé ${nonce}${nonce} 🚀</p>${nonce}`;
    expect(pageEtag(Buffer.from(text), nonce)).toBe(sha1("<p>Ünïcödé  🚀</p>"));
    expect(pageEtag(Buffer.from(text), undefined)).toBe(sha1(text));
    expect(pageEtag(Buffer.from("no nonce here"), nonce)).toBe(sha1("no nonce here"));
  });
});

describe("notModified", () => {
  const etag = 'W/"abc"';
  it("matches the tag, weakly, in a list, or *", () => {
    expect(notModified('W/"abc"', etag)).toBe(true);
    expect(notModified('"abc"', etag)).toBe(true);
    expect(notModified('W/"x", W/"abc"', etag)).toBe(true);
    expect(notModified("*", etag)).toBe(true);
  });
  it("does not match another tag or none", () => {
    expect(notModified('W/"abd"', etag)).toBe(false);
    expect(notModified(null, etag)).toBe(false);
    expect(notModified("", etag)).toBe(false);
  });
});
