import { describe, expect, it } from "vitest";
import { parseRewardForm, rewardPoolValues } from "./reward-form";
import { rewardPoolSchema } from "./reward.schema";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return parseRewardForm(data);
};
const errorsOf = (fields: Record<string, string>) => {
  const { form: parsed } = form(fields);
  return parsed.ok ? null : parsed.errors;
};

describe("the reward form", () => {
  it("reads each distribution into what is stored", () => {
    expect(form({ distribution: "fcfs", winners: "100", amount: "50" }).form).toEqual({ ok: true, data: { distribution: "fcfs", winners: 100, amount: 50, rankAmounts: null } });
    expect(form({ distribution: "raffle", winners: " 1,000 ", amount: "5" }).form).toMatchObject({ ok: true, data: { winners: 1000 } });
    expect(form({ distribution: "ranking", winners: "10", rankAmounts: "500, 300\n200" }).form).toEqual({
      ok: true,
      data: { distribution: "ranking", winners: 10, amount: null, rankAmounts: [500, 300, 200] },
    });
    // Fields of the other distributions are ignored.
    expect(form({ distribution: "everyone", total: "10000", winners: "x", amount: "y" }).form).toEqual({
      ok: true,
      data: { distribution: "everyone", winners: null, amount: 10000, rankAmounts: null },
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
    expect(errorsOf({ distribution: "ranking", winners: "2", rankAmounts: "500, 300, 200" })).toEqual({ rankAmounts: "List at most 2 amounts: one per winning rank" });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "100, 300" })).toEqual({ rankAmounts: "A better rank gets at least as much XP as the ranks after it" });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "100, ten" })).toEqual({ rankAmounts: "Write each rank's XP as a whole number, separated by commas" });
    expect(errorsOf({ distribution: "ranking", winners: "5", rankAmounts: "" })).toEqual({ rankAmounts: "Enter the XP for each rank" });
    expect(errorsOf({ distribution: "everyone", total: "-4" })).toEqual({ total: "Enter a whole number, like 100" });
    expect(errorsOf({ distribution: "fcfs", winners: "10001", amount: "1" })).toEqual({ winners: "Enter how many members win: at most 10,000" });
  });

  it("keeps what was typed, and fills in a stored pool", () => {
    expect(form({ distribution: "ranking", winners: "x", rankAmounts: "1, 2" }).values).toEqual({ distribution: "ranking", winners: "x", amount: "", total: "", rankAmounts: "1, 2" });
    const stored = rewardPoolSchema.parse({ distribution: "everyone", total: "900" });
    expect(rewardPoolValues(stored)).toEqual({ distribution: "everyone", winners: "", amount: "", total: "900", rankAmounts: "" });
  });
});
