import { describe, expect, it } from "vitest";
import { appearanceCookie, appearanceFromCookie, parseAppearance } from "./appearance";

describe("appearance", () => {
  it("reads the appearance cookie among others, defaulting to system", () => {
    expect(appearanceFromCookie("a=1; appearance=dark; b=2")).toBe("dark");
    expect(appearanceFromCookie("appearance=light")).toBe("light");
    expect(appearanceFromCookie("myappearance=dark")).toBe("system");
    expect(appearanceFromCookie("appearance=purple")).toBe("system");
    expect(appearanceFromCookie(null)).toBe("system");
    expect(parseAppearance(undefined)).toBe("system");
  });

  it("writes the cookie for 365 days on path / with SameSite=Lax", () => {
    expect(appearanceCookie("dark")).toBe("appearance=dark; Max-Age=31536000; Path=/; SameSite=Lax");
  });
});
