import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { RewardsPaidIn, RewardsTokenStatus } from "./rewards-token";

/** The markup's words, as a reader of the page gets them. */
const text = (element: React.ReactElement) =>
  renderToStaticMarkup(<MemoryRouter>{element}</MemoryRouter>)
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'");

describe("the rewards token on a project's pages", () => {
  it("is said by the chain's name", () => {
    expect(text(<RewardsPaidIn asset="USDC:31338" />)).toBe("Rewards are paid in USDC on Questline Local B");
    expect(text(<RewardsPaidIn asset={null} />)).toBe("");
  });

  it("tells an owner where to choose one when none is chosen", () => {
    expect(text(<RewardsTokenStatus projectSlug="p" asset={null} treasuryHolds={0n} ownHolds={0n} />)).toContain(
      "No rewards token is chosen yet: choose the chain and token the rewards are paid in from the project's settings.",
    );
  });

  it("tells an owner how to fund a treasury that holds none of it", () => {
    const empty = text(<RewardsTokenStatus projectSlug="p" asset="USDC:31338" treasuryHolds={0n} ownHolds={0n} />);
    expect(empty).toContain("Rewards are paid in USDC on Questline Local B");
    expect(empty).toContain("The treasury holds no USDC on Questline Local B yet. Deposit USDC from your wallet on Balance, then send it here with Fund.");
    expect(text(<RewardsTokenStatus projectSlug="p" asset="USDC:31338" treasuryHolds={0n} ownHolds={5n} />)).toContain(
      "Send some from your balance with Fund below.",
    );
    expect(text(<RewardsTokenStatus projectSlug="p" asset="QUEST:31337" treasuryHolds={0n} ownHolds={0n} />)).toContain(
      "Or deposit it from your wallet straight to the project below.",
    );
    expect(text(<RewardsTokenStatus projectSlug="p" asset="USDC:31338" treasuryHolds={1n} ownHolds={0n} />)).not.toContain("holds no");
  });
});
