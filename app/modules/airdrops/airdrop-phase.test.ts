import { describe, expect, it } from "vitest";
import { airdropOpen, airdropPhase, claimDeadlineOf } from "./airdrop-phase";

const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * 86_400_000);
const open = { status: "open" as const, publishedAt: at(-5), startsAt: at(-1), endsAt: at(1) };
const frozen = { ...open, status: "frozen" as const, endsAt: at(-1) };
const round = (step: "funding" | "open" | "sweeping" | "swept" | "failed", deadlineDays: number) => ({
  step,
  deadline: Math.floor(at(deadlineDays).getTime() / 1000),
});

describe("an airdrop's phase", () => {
  it("follows its window while open, then its round once frozen", () => {
    expect(airdropPhase({ ...open, publishedAt: null }, null, T)).toBe("draft");
    expect(airdropPhase({ ...open, startsAt: at(1), endsAt: at(2) }, null, T)).toBe("upcoming");
    expect(airdropPhase(open, null, T)).toBe("live");
    expect(airdropPhase({ ...open, endsAt: at(-1) }, null, T)).toBe("ended");
    expect(airdropPhase(frozen, null, T)).toBe("frozen");
    expect(airdropPhase(frozen, round("funding", 10), T)).toBe("frozen");
    expect(airdropPhase(frozen, round("failed", 10), T)).toBe("failed");
    expect(airdropPhase(frozen, round("open", 10), T)).toBe("claimable");
    expect(airdropPhase(frozen, round("open", -1), T)).toBe("closed");
    expect(airdropPhase(frozen, round("sweeping", -1), T)).toBe("closed");
    expect(airdropPhase(frozen, round("swept", -1), T)).toBe("swept");
  });

  it("takes changes and tasks until it ends or is frozen; claims close at the round's deadline once it exists", () => {
    expect(airdropOpen(open, T)).toBe(true);
    expect(airdropOpen({ ...open, endsAt: T }, T)).toBe(false);
    expect(airdropOpen(frozen, T)).toBe(false);
    expect(claimDeadlineOf({ claimDeadline: at(30) }, null)).toEqual(at(30));
    expect(claimDeadlineOf({ claimDeadline: at(30) }, round("open", 31))).toEqual(at(31));
  });
});
