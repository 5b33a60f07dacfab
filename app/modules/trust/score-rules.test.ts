import { describe, expect, it } from "vitest";
import { BASE_SCORE, clusterReason, scoreOf, type MemberFacts } from "./score-rules";
import { FLAG_SCORE } from "./trust-types";

const NOW = new Date("2027-03-01T00:00:00Z");
const plain: MemberFacts = { accountCreatedAt: NOW, disposableDomain: null, clusters: [], oldestWallet: null, fundingUnknown: null, social: null };

describe("scoreOf", () => {
  it("starts every member at the base, unflagged, with no reasons", () => {
    expect(scoreOf(plain, NOW)).toEqual({ score: BASE_SCORE, flagged: false, reasons: [] });
  });

  it("flags a member in a cluster whatever the score, and words each kind without naming anyone", () => {
    const scored = scoreOf(
      {
        ...plain,
        oldestWallet: { chainId: 1, firstActivityAt: new Date("2024-03-05T00:00:00Z"), txCount: 40 },
        clusters: [
          { kind: "network", clusterId: "c1", size: 55, hours: 1.4 },
          { kind: "network", clusterId: "c0", size: 9, hours: 0.5 },
        ],
      },
      NOW,
    );
    expect(scored).toEqual({
      score: 35,
      flagged: true,
      reasons: [
        { code: "network_cluster", points: -30, words: "Created with 54 other accounts from one network in 2 hours", clusterId: "c1" },
        { code: "old_wallet", points: 15, words: "Wallet active on Ethereum since March 2024" },
      ],
    });
    expect(clusterReason({ kind: "funder", clusterId: "f", size: 38, chained: false }).words).toBe("Funded by the same address as 37 other members");
    expect(clusterReason({ kind: "synchronized", clusterId: "s", size: 12, tasks: 6 }).words).toBe("Completed 6 tasks within seconds of 11 other members");
    expect(clusterReason({ kind: "same_answer", clusterId: "a", size: 9 }).words).toBe("Gave the same answer as 8 other members");
    expect(clusterReason({ kind: "referral", clusterId: "r", size: 41, role: "referee", referees: 40 }).words).toBe(
      "One of 40 fresh accounts referred by one member that did little else",
    );
    expect(clusterReason({ kind: "network", clusterId: "n", size: 2, hours: 0.2 }).words).toBe("Created with 1 other account from one network within an hour");
  });

  it("flags a low score alone, keeps unknown funding at 0 points and clamps to 0–100", () => {
    const disposable = scoreOf({ ...plain, disposableDomain: "mailinator.com", fundingUnknown: "the node keeps no history that old" }, NOW);
    expect(disposable.score).toBeLessThanOrEqual(FLAG_SCORE);
    expect(disposable).toMatchObject({
      flagged: true,
      reasons: [
        { code: "disposable_email", words: "Signed up with a disposable e-mail address (mailinator.com)" },
        { code: "funding_unknown", points: 0, words: "Funding unknown: the node keeps no history that old" },
      ],
    });
    const everything = scoreOf(
      {
        ...plain,
        disposableDomain: "mailinator.com",
        clusters: (["funder", "sweep", "synchronized"] as const).map((kind) => ({ kind, clusterId: kind, size: 5, chained: false, tasks: 3 })),
      },
      NOW,
    );
    expect(everything.score).toBe(0);
    const best = scoreOf(
      {
        ...plain,
        accountCreatedAt: new Date("2025-01-01T00:00:00Z"),
        oldestWallet: { chainId: 8453, firstActivityAt: new Date("2023-01-01T00:00:00Z"), txCount: 900 },
        social: { provider: "youtube", createdAt: new Date("2020-01-01T00:00:00Z"), followers: null },
      },
      NOW,
    );
    expect(best.reasons.map((reason) => reason.words)).toEqual([
      "Wallet active on Base since January 2023",
      "Wallet sent 900 transactions on Base",
      "YouTube account 7 years old",
      "Member since January 2025",
    ]);
    expect(best.score).toBe(BASE_SCORE + 15 + 5 + 5 + 5);
  });
});
