import { describe, expect, it } from "vitest";
import { z } from "zod";
import { campaignSchema } from "~/modules/tasks/quests.schema";
import { hasControlCharacter, normalizeLineBreaks } from "./form-text";
import { parseForm } from "./forms";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
};

describe("form text", () => {
  it("counts a line break as one character, as the browser's field does", () => {
    const schema = z.object({ description: z.string().max(2000, "Keep it under 2000 characters") });
    // 2,000 characters in the field: 40 lines of 49 letters and their 40 line breaks, sent as CR LF.
    const typed = Array.from({ length: 40 }, () => "x".repeat(49)).join("\n") + "\n";
    expect(typed.length).toBe(2000);
    const sent = typed.replace(/\n/g, "\r\n");
    expect(parseForm(schema, form({ description: sent }))).toEqual({ ok: true, data: { description: typed } });
    expect(parseForm(schema, form({ description: sent + "x" }))).toEqual({
      ok: false,
      code: "invalid",
      errors: { description: "Keep it under 2000 characters" },
    });
    expect(normalizeLineBreaks("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
  });

  it("knows control characters from tabs and line breaks", () => {
    expect(hasControlCharacter("a\u0000b")).toBe(true);
    expect(hasControlCharacter("a\u001bb")).toBe(true);
    expect(hasControlCharacter("a\tb\nc\r\nd é 🙂")).toBe(false);
  });
});

describe("dates in forms", () => {
  const campaign = (startsAt: string, endsAt = "2030-01-02T00:00Z") => parseForm(campaignSchema, form({ name: "Launch", slug: "launch", startsAt, endsAt }));

  it("refuses years a campaign cannot have, with a message", () => {
    for (const startsAt of ["0000-01-01T00:00Z", "+275760-09-13T00:00:00Z", "-200000-01-01T00:00Z", "1999-12-31T23:59Z", "2101-01-01T00:00Z"]) {
      const parsed = campaign(startsAt);
      expect(parsed.ok, startsAt).toBe(false);
      if (!parsed.ok) expect(parsed.errors.startsAt, startsAt).toMatch(/^Enter (a date between 2000 and 2100|when it starts)$/);
    }
    expect(campaign("2030-01-01T00:00Z").ok).toBe(true);
  });
});
