import { describe, expect, it } from "vitest";
import { utcInputValue, withOffset, zoneDateFields } from "./local-datetime";

describe("datetime-local values", () => {
  it("are read in the member's time zone when the browser sent its offset", () => {
    expect(withOffset("2026-05-01T10:00", "-120")).toBe("2026-05-01T10:00+02:00");
    expect(withOffset("2026-05-01T10:00", "330")).toBe("2026-05-01T10:00-05:30");
    expect(new Date(withOffset("2026-05-01T10:00", "-120")).toISOString()).toBe("2026-05-01T08:00:00.000Z");
  });

  it("are taken as UTC without a usable offset, and other values are left alone", () => {
    expect(withOffset("2026-05-01T10:00", null)).toBe("2026-05-01T10:00Z");
    expect(withOffset("2026-05-01T10:00", "abc")).toBe("2026-05-01T10:00Z");
    expect(withOffset("2026-05-01T10:00", "5000")).toBe("2026-05-01T10:00Z");
    expect(withOffset("", "-60")).toBe("");
    expect(withOffset("tomorrow", "-60")).toBe("tomorrow");
  });

  it("are zoned in a submitted form, and rendered back in UTC", () => {
    const form = new FormData();
    form.set("startsAt", "2026-05-01T10:00");
    form.set("startsAtOffset", "-60");
    zoneDateFields(form, ["startsAt", "endsAt"]);
    expect(form.get("startsAt")).toBe("2026-05-01T10:00+01:00");
    expect(form.has("endsAt")).toBe(false);
    expect(utcInputValue(new Date("2026-05-01T09:00:00Z"))).toBe("2026-05-01T09:00");
  });
});
