import { describe, expect, it } from "vitest";
import { leaderboardSettingsSchema } from "./leaderboard-settings.schema";

const parse = (values: Record<string, string>) => leaderboardSettingsSchema.safeParse(values);

describe("leaderboard settings", () => {
  it("reads the checkbox and trims the display name", () => {
    expect(parse({ visible: "on", displayName: "  Ada  " }).data).toEqual({ visible: true, displayName: "Ada" });
    expect(parse({ displayName: "Ada" }).data).toEqual({ visible: false, displayName: "Ada" });
  });

  it("takes an empty display name as the profile name", () => {
    expect(parse({ visible: "on", displayName: "   " }).data).toEqual({ visible: true, displayName: null });
  });

  it("refuses names of 1 or more than 30 characters, and control characters", () => {
    expect(parse({ displayName: "A" }).success).toBe(false);
    expect(parse({ displayName: "A".repeat(31) }).success).toBe(false);
    expect(parse({ displayName: "A".repeat(30) }).success).toBe(true);
    expect(parse({ displayName: "Ad\u0000a" }).success).toBe(false);
  });
});
