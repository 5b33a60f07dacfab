import { describe, expect, it } from "vitest";
import { pageNow } from "./page-now.server";
import { readAll, RenderMemo, renderKey, streamOf } from "./render-memo.server";

const url = "http://127.0.0.1/projects/astra/campaigns/season-4";
/** React Router's encoding of a page's data, as it reaches the entry (the root's data holds the nonce). */
const handoff = (nonce: string, name = "Season 4") => [
  new TextEncoder().encode(`[{"_1":2},"loaderData",{"root":{"nonce":"${nonce}"},"page":{"name":"${name}"}}]\n`),
];

describe("renderKey", () => {
  it("is the same for the same data and URL, whatever the nonce", () => {
    expect(renderKey({ url, handoff: handoff("nonce-1"), nonce: "nonce-1" })).toBe(renderKey({ url, handoff: handoff("nonce-2"), nonce: "nonce-2" }));
  });

  it("differs when the data or the URL (host and query included) differ", () => {
    const base = renderKey({ url, handoff: handoff("n1"), nonce: "n1" });
    for (const other of [
      renderKey({ url, handoff: handoff("n1", "Season 5"), nonce: "n1" }),
      renderKey({ url: url.replace("127.0.0.1", "localhost"), handoff: handoff("n1"), nonce: "n1" }),
      renderKey({ url: `${url}?tab=2`, handoff: handoff("n1"), nonce: "n1" }),
      renderKey({ url, handoff: [...handoff("n1"), new TextEncoder().encode("P1:[3]\n")], nonce: "n1" }),
    ])
      expect(other).not.toBe(base);
  });

  it("marks where the nonce was: the same bytes around it in other places are other data", () => {
    const at = (text: string) => renderKey({ url, handoff: [new TextEncoder().encode(text)], nonce: "NONCE" });
    expect(at(`"abNONCEc"`)).not.toBe(at(`"aNONCEbc"`));
    expect(at(`"abc"`)).not.toBe(at(`"abNONCEc"`));
    expect(at(`"abNONCEc"`)).toBe(renderKey({ url, handoff: [new TextEncoder().encode(`"abOTHERc"`)], nonce: "OTHER" }));
  });

  it("does not run the URL into the data", () => {
    expect(renderKey({ url: "http://a/x", handoff: [new TextEncoder().encode("y")], nonce: undefined })).not.toBe(
      renderKey({ url: "http://a/", handoff: [new TextEncoder().encode("xy")], nonce: undefined }),
    );
  });
});

describe("readAll and streamOf", () => {
  it("read a stream's chunks and hand them to the render as a stream again", async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    const read = await readAll(streamOf(chunks));
    expect(read).toEqual(chunks);
    expect(await readAll(streamOf(read))).toEqual(chunks);
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
