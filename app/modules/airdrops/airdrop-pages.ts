import type { AirdropPhase } from "./airdrop-phase";
import type { AirdropRule } from "./airdrop-types";

/**
 * What the airdrop screens show (plain data: components import these types, never the server
 * modules that read them, airdrop-pages.server.ts and member-airdrops.server.ts).
 */

/** An airdrop on an index: what it pays, whose, when, how many tasks earn its points. */
export type AirdropCardData = {
  id: string;
  slug: string;
  name: string;
  description: string;
  asset: string;
  total: bigint;
  rule: AirdropRule;
  /** `top`: how many ranks it pays. */
  ranks: number | null;
  phase: AirdropPhase;
  startsAt: Date;
  endsAt: Date;
  /** When claims close (the round's deadline once it exists). */
  claimDeadline: Date;
  /** Published tasks. */
  tasks: number;
  project: { slug: string; name: string; logoUrl: string | null };
};

/** A claim read from the distributor's `Claimed` event. */
export type AirdropClaimRecord = { txHash: string; chainId: number; claimedAt: Date };

/** The member's frozen share (`airdrop_allocation`): `leaf` null when they had no wallet at the freeze. */
export type AirdropShare = { rank: number; points: number; amount: bigint; account: string | null; leaf: number | null; claim: AirdropClaimRecord | null };

/** The member on one airdrop: their place on its board, their frozen share, whether a wallet is linked. */
export type AirdropStanding = {
  board: { rank: number; points: number } | null;
  share: AirdropShare | null;
  hasWallet: boolean;
  /** The reason the project's team gave for keeping the member out of this airdrop (or the whole project), while it stands. */
  excluded: string | null;
};

/**
 * One of the member's airdrops on the Airdrop page:
 * - `claimable`: the round is open, they have a leaf and have not claimed;
 * - `waiting`: frozen with a leaf, the round not open yet;
 * - `claimed`: their leaf's `Claimed` event was read (with its transaction);
 * - `eligible`: running (or ended, not frozen yet) with points on its board;
 * - `missed`: frozen without a share they can claim (no wallet at the freeze, below the minimum,
 *   on the project's team), not claimed before the deadline, or its round never opened.
 */
export const MEMBER_AIRDROP_GROUPS = ["claimable", "waiting", "claimed", "eligible", "missed"] as const;
export type MemberAirdropGroup = (typeof MEMBER_AIRDROP_GROUPS)[number];
export type MissedReason = "no_wallet" | "below_minimum" | "team" | "deadline" | "not_opened" | "previous_chain";

export type MemberAirdrop = AirdropCardData & {
  group: MemberAirdropGroup;
  /** Points on its board and the rank there (`eligible`), or the frozen share's. */
  points: number | null;
  rank: number | null;
  share: AirdropShare | null;
  minPoints: number;
  missed: MissedReason | null;
};
