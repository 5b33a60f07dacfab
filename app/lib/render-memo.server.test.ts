import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageNow } from "./page-now.server";
import { RenderMemo, renderKey } from "./render-memo.server";

const url = "http://127.0.0.1/projects/astra/campaigns/season-4";
const data = (nonce: string, name = "Season 4") => ({
  root: { nonce, appName: "Questline", user: null, appearance: "system" },
  "routes/campaigns/show": { campaign: { name, endsAt: new Date("2026-12-01T00:00:00Z") }, now: new Date("2026-11-26T10:00:00Z"), tasks: [{ id: 1, xp: 50 }] },
});

describe("renderKey", () => {
  it("is the same for the same inputs, whatever the nonce", () => {
    expect(renderKey({ url, loaderData: data("n1"), nonce: "n1" })).toBe(renderKey({ url, loaderData: data("n2"), nonce: "n2" }));
  });

  it("differs when any input differs: the data, the URL (host and query included), a date", () => {
    const base = renderKey({ url, loaderData: data("n"), nonce: "n" });
    const changed = data("n");
    changed["routes/campaigns/show"].now = new Date("2026-11-26T10:00:01Z");
    for (const other of [
      renderKey({ url, loaderData: data("n", "Season 5"), nonce: "n" }),
      renderKey({ url, loaderData: changed, nonce: "n" }),
      renderKey({ url: url.replace("127.0.0.1", "localhost"), loaderData: data("n"), nonce: "n" }),
      renderKey({ url: `${url}?tab=2`, loaderData: data("n"), nonce: "n" }),
    ])
      expect(other).not.toBe(base);
  });

  it("tells apart what JSON alone would not: maps, sets, bigints, and a text equal to the nonce elsewhere", () => {
    const key = (value: unknown) => renderKey({ url, loaderData: { page: value }, nonce: "n" });
    expect(key(new Map([["a", 1]]))).not.toBe(key(new Map([["a", 2]])));
    expect(key(new Map([["a", 1]]))).not.toBe(key({}));
    expect(key(new Set([1]))).not.toBe(key(new Set([2])));
    expect(key(10n)).not.toBe(key(11n));
    expect(key(10n)).not.toBe(key("10"));
    expect(key({ label: "x" })).not.toBe(key({ label: "n" }));
  });

  it("keeps no page whose data holds a value it cannot stand for exactly", () => {
    for (const value of [Promise.resolve(1), new Error("x"), new URL("http://a"), new (class Point {})()])
      expect(renderKey({ url, loaderData: { page: { value } }, nonce: "n" })).toBeNull();
  });

  it("gives two data the same key only when they are the same, and the same data always the same key (property)", () => {
    const value = fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true });
    const key = (page: unknown) => renderKey({ url, loaderData: { page }, nonce: "n" });
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(key(a)).toBe(key(structuredClone(a)));
        if (key(a) === key(b)) expect(a).toStrictEqual(b);
      }),
      { numRuns: 500 },
    );
  });
});

describe("RenderMemo", () => {
  const page = (nonce: string, text = "Season 4") => Buffer.from(`<script nonce="${nonce}">1</script><h1>${text}</h1><script nonce="${nonce}">2</script>`);

  it("answers a kept page with the nonce of the request asking: the bytes a render of its own gives", () => {
    const memo = new RenderMemo();
    memo.set("k", page("first"), "first", 'W/"e"');
    expect(memo.get("k", "second")).toEqual({ body: page("second"), etag: 'W/"e"' });
    expect(memo.get("other", "second")).toBeNull();
  });

  it("hands out a new buffer each time", () => {
    const memo = new RenderMemo();
    memo.set("k", page("nonce-a"), "nonce-a", "e");
    const one = memo.get("k", "nonce-b")!.body;
    one.fill(0);
    expect(memo.get("k", "nonce-b")!.body).toEqual(page("nonce-b"));
  });

  it("keeps at most its entries and bytes, dropping the least recently used", () => {
    const memo = new RenderMemo(2, 1_000);
    memo.set("a", page("n", "A"), "n", "a");
    memo.set("b", page("n", "B"), "n", "b");
    memo.get("a", "n");
    memo.set("c", page("n", "C"), "n", "c");
    expect([memo.get("a", "n"), memo.get("b", "n"), memo.get("c", "n")].map((kept) => kept?.etag ?? null)).toEqual(["a", null, "c"]);

    const small = new RenderMemo(10, 2 * page("n").length);
    for (const key of ["a", "b", "c"]) small.set(key, page("n"), "n", key);
    expect(small.size).toBe(2);
    expect(small.get("a", "n")).toBeNull();
    small.set("huge", Buffer.alloc(10_000), "n", "h");
    expect(small.get("huge", "n")).toBeNull();
    expect(small.size).toBe(2);
  });

  it("replaces a page kept under the same key, counting its bytes once", () => {
    const memo = new RenderMemo(10, 2 * page("n").length);
    memo.set("a", page("n"), "n", "1");
    memo.set("a", page("n"), "n", "2");
    memo.set("b", page("n"), "n", "3");
    expect(memo.size).toBe(2);
    expect(memo.get("a", "n")?.etag).toBe("2");
  });
});

describe("pageNow", () => {
  it("is the moment to the whole second", () => {
    expect(pageNow(Date.parse("2026-11-26T10:00:00.999Z")).toISOString()).toBe("2026-11-26T10:00:00.000Z");
    expect(pageNow(Date.parse("2026-11-26T10:00:01.000Z")).toISOString()).toBe("2026-11-26T10:00:01.000Z");
  });
});
