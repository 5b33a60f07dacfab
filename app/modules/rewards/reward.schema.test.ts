import { describe, expect, it } from "vitest";
import { parseRewardForm, rewardPoolValues } from "./reward-form";
import { rewardPoolSchema, rewardPoolSchemaFor } from "./reward.schema";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  // QUEST (18 decimals) and the stand-in USDC (6) are what rewards pay here; LUMEN is listed nowhere.
  return parseRewardForm(data, (asset) => (asset.startsWith("QUEST:") ? 18 : asset.startsWith("USDC:") ? 6 : null));
};
const errorsOf = (fields: Record<string, string>) => {
  const { form: parsed } = form(fields);
  return parsed.ok ? null : parsed.errors;
};

describe("the reward form", () => {
  it("refuses a token rewards cannot pay, in the asset field", () => {
    expect(errorsOf({ kind: "token", asset: "LUMEN:31338", distribution: "fcfs", winners: "10", amount: "5" })).toEqual({
      asset: "Rewards cannot pay LUMEN here: choose a token from the list.",
    });
    expect(errorsOf({ kind: "token", asset: "QUEST:31338", distribution: "fcfs", winners: "10", amount: "5" })).toBeNull();
  });

  it("reads each distribution into what is stored", () => {
    expect(form({ distribution: "fcfs", winners: "100", amount: "50" }).form).toEqual({
      ok: true,
      data: { kind: "xp", asset: null, distribution: "fcfs", winners: 100, amount: 50n, rankAmounts: null },
    });
    expect(form({ distribution: "raffle", winners: " 1,000 ", amount: "5" }).form).toMatchObject({ ok: true, data: { winners: 1000 } });
    expect(form({ distribution: "ranking", winners: "10", rankAmounts: "500, 300\n200" }).form).toEqual({
      ok: true,
      data: { kind: "xp", asset: null, distribution: "ranking", winners: 10, amount: null, rankAmounts: [500n, 300n, 200n] },
    });
    // Fields of the other distributions are ignored.
    expect(form({ distribution: "everyone", total: "10000", winners: "x", amount: "y" }).form).toEqual({
      ok: true,
      data: { kind: "xp", asset: null, distribution: "everyone", winners: null, amount: 10000n, rankAmounts: null },
    });
  });

  it("says what is wrong beside each field", () => {
    expect(errorsOf({})).toEqual({ distribution: "Choose how the reward is shared" });
    expect(errorsOf({ distribution: "tokens" })).toEqual({ distribution: "Choose how the reward is shared" });
    expect(errorsOf({ distribution: "fcfs", winners: "", amount: "0" })).toEqual({
      winners: "Enter how many members win",
      amount: "Enter the XP each winner gets: at least 1",
    });
    expect(errorsOf({ distribution: "raffle", winners: "2.5", amount: "10000001" })).toEqual({
      winners: "Enter a whole number, like 100",
      amount: "Enter the XP each winner gets: at most 1,000,000",
    });
    expect(errorsOf({ distribution: "ranking", winners: "2", rankAmounts: "500, 300, 200" })).toEqual({
      rankAmounts: "List at most 2 amounts: one per winning rank",
    });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "100, 300" })).toEqual({
      rankAmounts: "A better rank gets at least as much as the ranks after it",
    });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "100, ten" })).toEqual({
      rankAmounts: "Each rank's XP must be a whole number, like 100 (separate the amounts with commas)",
    });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "" })).toEqual({ rankAmounts: "Enter the XP for each rank" });
    expect(errorsOf({ distribution: "everyone", total: "-4" })).toEqual({ total: "Enter the XP to split: a whole number, like 100" });
    expect(errorsOf({ distribution: "fcfs", winners: "10001", amount: "1" })).toEqual({ winners: "Enter how many members win: at most 10,000" });
  });

  it("keeps what was typed, and fills in a stored pool", () => {
    expect(form({ distribution: "ranking", winners: "x", rankAmounts: "1, 2" }).values).toEqual({
      kind: "xp",
      asset: "",
      distribution: "ranking",
      winners: "x",
      amount: "",
      total: "",
      rankAmounts: "1, 2",
    });
    const stored = rewardPoolSchema.parse({ distribution: "everyone", total: "900" });
    expect(rewardPoolValues(stored)).toEqual({ kind: "xp", asset: "", distribution: "everyone", winners: "", amount: "", total: "900", rankAmounts: "" });
  });

  it("reads token amounts with up to 18 decimals, for the chosen token", () => {
    const token = (fields: Record<string, string>) => form({ kind: "token", asset: "QUEST:31337", ...fields }).form;
    expect(token({ distribution: "raffle", winners: "3", amount: "2.5" })).toEqual({
      ok: true,
      data: { kind: "token", asset: "QUEST:31337", distribution: "raffle", winners: 3, amount: 2_500_000_000_000_000_000n, rankAmounts: null },
    });
    expect(token({ distribution: "ranking", winners: "3", rankAmounts: "10, 5.5" })).toMatchObject({
      ok: true,
      data: { rankAmounts: [10n * 10n ** 18n, 55n * 10n ** 17n] },
    });
    expect(token({ distribution: "everyone", total: "0.000000000000000001" })).toMatchObject({ ok: true, data: { amount: 1n } });
    const errors = (fields: Record<string, string>) => {
      const parsed = form({ kind: "token", ...fields }).form;
      return parsed.ok ? null : parsed.errors;
    };
    expect(errors({ asset: "QUEST:31337", distribution: "fcfs", winners: "1", amount: "0" })).toEqual({ amount: "Enter the tokens each winner gets: above 0" });
    expect(errors({ asset: "QUEST:31337", distribution: "fcfs", winners: "1", amount: "-1" })).toEqual({
      amount: "Enter the tokens each winner gets: a number, like 10 or 2.5 (at most 18 decimals)",
    });
    expect(errors({ asset: "QUEST:31337", distribution: "everyone", total: "1.0000000000000000001" })).toEqual({
      total: "Enter the tokens to split: a number, like 10 or 2.5 (at most 18 decimals)",
    });
    expect(errors({ asset: "", distribution: "everyone", total: "5" })).toEqual({ asset: "Choose the token to pay" });
    expect(errors({ asset: "quest", distribution: "everyone", total: "5" })).toEqual({ asset: "must be a token symbol and chain id, e.g. QUEST:31337" });
    expect(errors({ asset: "QUEST:31337", distribution: "ranking", winners: "3", rankAmounts: "1, 2" })).toEqual({
      rankAmounts: "A better rank gets at least as much as the ranks after it",
    });
  });

  it("reads a USDC pool's amounts in USDC's own 6 decimals, and refuses a 7th in words", () => {
    const usdc = (fields: Record<string, string>) => form({ kind: "token", asset: "USDC:31338", ...fields }).form;
    expect(usdc({ distribution: "fcfs", winners: "4", amount: "2.5" })).toEqual({
      ok: true,
      data: { kind: "token", asset: "USDC:31338", distribution: "fcfs", winners: 4, amount: 2_500_000n, rankAmounts: null },
    });
    expect(usdc({ distribution: "ranking", winners: "2", rankAmounts: "1.000001, 0.5" })).toMatchObject({
      ok: true,
      data: { rankAmounts: [1_000_001n, 500_000n] },
    });
    expect(usdc({ distribution: "everyone", total: "0.0000001" })).toMatchObject({
      ok: false,
      errors: { total: "Enter the tokens to split: a number, like 10 or 2.5 (at most 6 decimals)" },
    });
    expect(usdc({ distribution: "ranking", winners: "2", rankAmounts: "1, 0.0000005" })).toMatchObject({
      ok: false,
      errors: { rankAmounts: "Each rank's tokens must be a number, like 10 or 2.5 (at most 6 decimals) (separate the amounts with commas)" },
    });
    // Shown back in 6 decimals, as typed.
    const stored = rewardPoolSchemaFor("token", 6).parse({ asset: "USDC:31338", distribution: "ranking", winners: "2", rankAmounts: "1.000001, 0.25" });
    expect(stored.rankAmounts).toEqual([1_000_001n, 250_000n]);
    expect(rewardPoolValues(stored, 6)).toMatchObject({ kind: "token", asset: "USDC:31338", rankAmounts: "1.000001, 0.25" });
  });

  it("shows a stored token pool's amounts as typed", () => {
    const stored = rewardPoolSchemaFor("token").parse({ asset: "QUEST:31337", distribution: "ranking", winners: "2", rankAmounts: "1.5, 0.25" });
    expect(rewardPoolValues(stored)).toMatchObject({ kind: "token", asset: "QUEST:31337", rankAmounts: "1.5, 0.25" });
  });
});
