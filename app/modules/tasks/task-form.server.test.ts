import { describe, expect, it } from "vitest";
import type { Task } from "./completions.server";
import { readTaskForm, taskFormValues } from "./task-form.server";

const chainIds = [56, 11155111];
const form = (fields: Record<string, string>) => {
  const fd = new FormData();
  const base = {
    title: "Hold the token",
    description: "",
    type: "visit_link",
    xp: "20",
    verification: "none",
    recurrence: "once",
    startsAt: "",
    endsAt: "",
    cap: "",
    campaignId: "",
  };
  for (const [k, v] of Object.entries({ ...base, ...fields })) fd.set(k, v);
  return fd;
};

describe("the task form", () => {
  it("reads the common fields and the type's own, with times in UTC", () => {
    const read = readTaskForm(form({ "config.url": "https://example.com", startsAt: "2030-01-02T10:00", cap: "5", published: "on" }), { chainIds });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.input).toMatchObject({ type: "visit_link", xp: 20, cap: 5, published: true, config: { url: "https://example.com" } });
    expect(read.input.startsAt?.toISOString()).toBe("2030-01-02T10:00:00.000Z");
    // Typed in New York (UTC-5 in January): the browser sends the offset beside the time.
    const inNewYork = readTaskForm(form({ "config.url": "https://example.com", startsAt: "2030-01-02T10:00", startsAtOffset: "300" }), { chainIds });
    expect(inNewYork.ok && inNewYork.input.startsAt?.toISOString()).toBe("2030-01-02T15:00:00.000Z");
  });

  it("turns a human token amount into the smallest unit with the token's decimals", () => {
    const read = readTaskForm(
      form({
        type: "hold_token",
        verification: "auto",
        "config.chainId": "56",
        "config.tokenAddress": "",
        "config.minBalance": "1.5",
        "config.decimals": "6",
        "config.symbol": "USDT",
      }),
      { chainIds },
    );
    expect(read.ok && read.input.config).toEqual({
      chainId: 56,
      tokenAddress: null,
      minBalance: "1500000",
      symbol: "USDT",
      decimals: 6,
      snapshotBlock: null,
      recheckBeforeRewards: false,
    });
  });

  it("reports errors per field, config fields included, and keeps what was typed", () => {
    const read = readTaskForm(
      form({ title: "x", type: "hold_token", verification: "review", "config.chainId": "1", "config.minBalance": "1.1234567", "config.decimals": "6" }),
      { chainIds },
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(Object.keys(read.errors).sort()).toEqual(["config.chainId", "config.minBalance", "title", "verification"]);
    expect(read.errors["config.minBalance"]).toBe("At most 6 decimal places");
    expect(read.values["config.minBalance"]).toBe("1.1234567");
  });

  it("words zod's own messages for people", () => {
    const read = readTaskForm(form({ type: "quiz", verification: "auto", "config.question": "Why?", "config.answers": "", "config.retryDelaySeconds": "-3" }), {
      chainIds,
    });
    expect(!read.ok && read.errors).toMatchObject({
      "config.answers": "Give at least one accepted answer",
      "config.retryDelaySeconds": "Enter a whole number of seconds from 0 to 86,400",
    });
  });

  it("shows a saved task with its amount in whole tokens and its times as moments (the form shows them in the member's zone)", () => {
    const values = taskFormValues({
      title: "Hold",
      description: "",
      type: "hold_token",
      xp: 5,
      verification: "auto",
      recurrence: "daily",
      startsAt: new Date("2030-01-02T10:00:00Z"),
      endsAt: null,
      cap: null,
      campaignId: null,
      publishedAt: new Date(),
      config: { chainId: 56, tokenAddress: null, minBalance: "1500000000000000000", symbol: "", decimals: 18 },
    } as unknown as Task);
    expect(values).toMatchObject({ "config.minBalance": "1.5", "config.tokenAddress": "", startsAt: "2030-01-02T10:00:00.000Z", published: "on", cap: "" });
  });

  it("reads a Discord role task's server, role and invite, refuses ids that are not Discord's, and shows them again to edit", () => {
    const fields = {
      type: "discord_role",
      verification: "auto",
      "config.guildId": "900000000000000001",
      "config.guildName": "Lumen",
      "config.roleId": "900000000000000011",
      "config.roleName": "Holder",
      "config.inviteUrl": "https://discord.gg/lumen",
    };
    const read = readTaskForm(form(fields), { chainIds });
    const config = {
      guildId: "900000000000000001",
      guildName: "Lumen",
      roleId: "900000000000000011",
      roleName: "Holder",
      inviteUrl: "https://discord.gg/lumen",
    };
    expect(read.ok && read.input.config).toEqual({ ...config, recheckBeforeRewards: false });
    const wrong = readTaskForm(form({ ...fields, "config.roleId": "Holder", "config.inviteUrl": "https://example.com/lumen" }), { chainIds });
    expect(!wrong.ok && Object.keys(wrong.errors)).toEqual(expect.arrayContaining(["config.roleId", "config.inviteUrl"]));

    const values = taskFormValues({
      title: "Hold the role",
      description: "",
      type: "discord_role",
      xp: 5,
      verification: "auto",
      recurrence: "once",
      startsAt: null,
      endsAt: null,
      cap: null,
      campaignId: null,
      publishedAt: null,
      config: { ...config, recheckBeforeRewards: true },
    } as unknown as Task);
    expect(values).toMatchObject({
      "config.guildId": "900000000000000001",
      "config.guildName": "Lumen",
      "config.roleId": "900000000000000011",
      "config.roleName": "Holder",
      "config.inviteUrl": "https://discord.gg/lumen",
      "config.recheckBeforeRewards": "on",
    });
  });
});
