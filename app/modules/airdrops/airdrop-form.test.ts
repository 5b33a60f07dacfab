import { describe, expect, it } from "vitest";
import { airdropFormDefaults, parseAirdropForm } from "./airdrop-form";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe("the airdrop form", () => {
  it("answers an empty form field by field, without failing on the missing dates", () => {
    const empty = { name: "", slug: "", description: "", rule: "top", total: "", rankAmounts: "", minPoints: "", startsAt: "", endsAt: "", claimDeadline: "" };
    const { form: parsed, values } = parseAirdropForm(form(empty));
    expect(parsed).toMatchObject({
      ok: false,
      errors: {
        name: expect.any(String),
        slug: expect.any(String),
        asset: "Choose the token the airdrop pays",
        startsAt: "Enter when it starts",
        endsAt: "Enter when it ends",
        claimDeadline: "Enter when claims close",
        rankAmounts: expect.stringContaining("best first"),
      },
    });
    expect(values).toMatchObject({ rule: "top", rankAmounts: "", published: false });
  });

  it("reports the dates and the missing total together, with times in the member's zone", () => {
    const fields = { name: "Season", slug: "season", asset: "QUEST:31337", rule: "pro_rata", total: "", claimDeadline: "2030-03-01T10:00" };
    const refused = parseAirdropForm(form({ ...fields, startsAt: "2030-01-02T10:00", endsAt: "2030-01-01T10:00" }));
    expect(refused.form).toMatchObject({ ok: false, errors: { endsAt: "The end comes after the start", total: "Enter the total" } });
    // Typed in New York (UTC-5 in January): the browser sends the offset beside each time.
    const read = parseAirdropForm(form({ ...fields, total: "1.5", startsAt: "2030-01-02T10:00", startsAtOffset: "300", endsAt: "2030-02-01T10:00" }));
    expect(read.form.ok && read.form.data.startsAt.toISOString()).toBe("2030-01-02T15:00:00.000Z");
    expect(read.form.ok && read.form.data.total).toBe(1_500_000_000_000_000_000n);
  });

  it("shows a saved airdrop's amounts in whole tokens", () => {
    const E = 10n ** 18n;
    const base = { name: "S", slug: "s", description: "", asset: "QUEST:31337", minPoints: 10, publishedAt: null };
    expect(airdropFormDefaults({ ...base, rule: "pro_rata", total: 1500n * E, rankAmounts: null })).toMatchObject({
      total: "1500",
      rankAmounts: "",
      minPoints: "10",
    });
    expect(airdropFormDefaults({ ...base, rule: "top", total: 5n * E, rankAmounts: [String(3n * E), String(2n * E)] })).toMatchObject({
      total: "",
      rankAmounts: "3, 2",
    });
  });
});
