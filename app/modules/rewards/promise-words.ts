/** The words of promises kept (promises.server.ts), shared by the domain's refusals and the screens. */

export const CAMPAIGN_ENTERED = {
  lower: "Members have entered this campaign: its token reward can be raised, not lowered.",
  delete: "Members have entered this campaign: its token reward cannot be deleted, only raised.",
  unpublish: "Members have entered this campaign: it stays published, so their entries and its rewards stay.",
  reschedule: "Members have entered this campaign: its start cannot move into the future.",
  gate: "Members have entered this campaign: its eligibility rules can be removed, not added or changed, so nobody loses what they entered for.",
} as const;

export const LIVE_POOL = {
  lower: "This campaign is live: its token reward can be raised, not lowered.",
  delete: "This campaign is live: its token reward cannot be deleted, only raised.",
} as const;

export const AIRDROP_ENTERED = {
  lower: "Members have earned points in this airdrop: its total can be raised, not lowered.",
  change: "Members have earned points in this airdrop: its token and how it shares cannot change.",
  unpublish: "Members have earned points in this airdrop: it stays published, so their points and its total stay.",
  reschedule: "Members have earned points in this airdrop: its start cannot move into the future.",
  gate: "Members have earned points in this airdrop: its eligibility rules can be removed, not added or changed, so nobody loses what they earned.",
} as const;

/** What the screens say where an owner would otherwise try: the pool form and its Delete, the campaign and airdrop forms. */
export const KEPT_NOTE = {
  livePools: "This campaign is live: its token rewards can be raised, but not lowered or deleted.",
  enteredPools: "Members have entered this campaign: its token rewards can be raised, but not lowered or deleted.",
  campaign:
    "Members have entered this campaign: it stays published, its start cannot move into the future, and its token rewards can be raised but not lowered.",
  airdrop:
    "Members have earned points in this airdrop: it stays published, its start cannot move into the future, its token and how it shares stay, and its total can be raised but not lowered.",
} as const;
