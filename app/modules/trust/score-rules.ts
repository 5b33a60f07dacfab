import { CHAIN_NAMES } from "~/wallet/chains";
import { FLAG_SCORE, type ClusterKind, type TrustReason } from "./trust-types";

/**
 * The trust score's rules, one table a project team can read (decision 059): a member starts at
 * BASE_SCORE and each rule that fires adds or takes its points, clamped to 0–100. Being in a
 * cluster flags a member whatever the score; so does a score at or below FLAG_SCORE. What cannot
 * be read (a node without the history) is said in words and moves nothing: unknown is never
 * suspicious. The words are the member's too: they count other members, never name them.
 * No server imports: the scoring job, pages and tests read these.
 */

export const BASE_SCORE = 50;

/** When a group of members sharing evidence is a cluster. */
export const CLUSTER_THRESHOLDS = {
  /** Distinct members whose wallets one funder (or one chain of funders) paid first. */
  funderMembers: 5,
  /** Distinct members whose wallets swept their coin to one address. */
  sweepMembers: 5,
  /** Accounts created from one network… */
  networkAccounts: 8,
  /** …within this many hours… */
  networkHours: 2,
  /** …and this many times what that network brings in as long on average over the kept 30 days (a busy ISP's steady flow is no burst). */
  networkOverUsual: 10,
  networkUsualDays: 30,
  /** Tasks two members both completed within SYNC_SECONDS of each other… */
  syncTasks: 3,
  syncSeconds: 5,
  /** …and members so linked, at least. */
  syncMembers: 5,
  /** Members who gave one written answer, proof or link (quiz answers aside)… */
  sameAnswerMembers: 3,
  /** …of at least this many characters once normalised. */
  sameAnswerMinLength: 30,
  /** Fresh referees of one referrer who did at most REFERRAL_IDLE_TASKS tasks… */
  referralReferees: 10,
  /** …fresh: their account was under this many days old at the referral… */
  referralFreshDays: 7,
  referralIdleTasks: 1,
  /** …referred at least this many hours ago (a new member gets a day to start). */
  referralGraceHours: 24,
} as const;

/** What each kind of cluster takes from its members' score. */
export const CLUSTER_POINTS: Record<ClusterKind, number> = {
  funder: -45,
  sweep: -40,
  network: -30,
  synchronized: -40,
  same_answer: -30,
  referral: -35,
};

/** The other rules' points. */
export const SIGNAL_POINTS = {
  disposableEmail: -15,
  /** A wallet active for a year or more; for 90 days or more. */
  walletYear: 15,
  walletQuarter: 5,
  /** That wallet sent ACTIVE_WALLET_TXS transactions or more. */
  activeWallet: 5,
  /** A social account two years old with 100 followers or more; a year old. */
  socialEstablished: 15,
  socialYear: 5,
  /** A member for 180 days or more. */
  longMember: 5,
  fundingUnknown: 0,
} as const;

/** Transactions sent that make a wallet an active one. */
export const ACTIVE_WALLET_TXS = 50;

const DAY_MS = 86_400_000;

/** One cluster a member is in, with what its words need. */
export type ClusterFact =
  | { kind: "funder"; clusterId: string; size: number; chained: boolean }
  | { kind: "sweep"; clusterId: string; size: number }
  | { kind: "network"; clusterId: string; size: number; hours: number }
  | { kind: "synchronized"; clusterId: string; size: number; tasks: number }
  | { kind: "same_answer"; clusterId: string; size: number }
  | { kind: "referral"; clusterId: string; size: number; role: "referrer" | "referee"; referees: number };

/** What the scoring read of one member. */
export type MemberFacts = {
  accountCreatedAt: Date;
  /** The disposable e-mail domain the member signed up with, if it is one. */
  disposableDomain: string | null;
  clusters: readonly ClusterFact[];
  /** The member's wallet with the oldest activity on any chain. */
  oldestWallet: { chainId: number; firstActivityAt: Date; txCount: number | null } | null;
  /** Why a wallet's funding could not be read (the node's answer), when one could not. */
  fundingUnknown: string | null;
  /** The member's oldest linked social account whose provider gives its age. */
  social: { provider: string; createdAt: Date; followers: number | null } | null;
};

export type MemberTrustScore = { score: number; flagged: boolean; reasons: TrustReason[] };

const PROVIDER_NAMES: Record<string, string> = { x: "X", youtube: "YouTube", tiktok: "TikTok", instagram: "Instagram" };

const counted = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const others = (size: number) => counted(Math.max(0, size - 1), "other member");
const monthYear = (at: Date) => at.toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });

/** The sentence and points of one cluster for one of its members. */
export function clusterReason(fact: ClusterFact): TrustReason {
  const points = CLUSTER_POINTS[fact.kind];
  const reason = (code: string, words: string): TrustReason => ({ code, points, words, clusterId: fact.clusterId });
  switch (fact.kind) {
    case "funder":
      return fact.chained
        ? reason("funder_cluster", `Funded through one chain of wallets, like ${others(fact.size)}`)
        : reason("funder_cluster", `Funded by the same address as ${others(fact.size)}`);
    case "sweep":
      return reason("sweep_cluster", `Sent its coin to the same address as ${others(fact.size)}`);
    case "network": {
      const span = fact.hours <= 1 ? "within an hour" : `in ${counted(Math.ceil(fact.hours), "hour")}`;
      return reason("network_cluster", `Created with ${counted(fact.size - 1, "other account")} from one network ${span}`);
    }
    case "synchronized":
      return reason("synchronized_cluster", `Completed ${counted(fact.tasks, "task")} within seconds of ${others(fact.size)}`);
    case "same_answer":
      return reason("same_answer_cluster", `Gave the same answer as ${others(fact.size)}`);
    case "referral":
      return fact.role === "referrer"
        ? reason("referral_cluster", `Referred ${counted(fact.referees, "fresh account")} that did little else`)
        : reason("referral_cluster", `One of ${counted(fact.referees, "fresh account")} referred by one member that did little else`);
  }
}

/** A member's score, flag and reasons from what the scoring read. */
export function scoreOf(facts: MemberFacts, now: Date, chainNames: Readonly<Record<number, string>> = CHAIN_NAMES): MemberTrustScore {
  const reasons: TrustReason[] = [];
  // One reason per kind of cluster: the largest of that kind speaks for it.
  const byKind = new Map<ClusterKind, ClusterFact>();
  for (const fact of facts.clusters) if ((byKind.get(fact.kind)?.size ?? 0) < fact.size) byKind.set(fact.kind, fact);
  for (const fact of byKind.values()) reasons.push(clusterReason(fact));

  if (facts.disposableDomain)
    reasons.push({
      code: "disposable_email",
      points: SIGNAL_POINTS.disposableEmail,
      words: `Signed up with a disposable e-mail address (${facts.disposableDomain})`,
    });

  if (facts.fundingUnknown && !byKind.has("funder"))
    reasons.push({ code: "funding_unknown", points: SIGNAL_POINTS.fundingUnknown, words: `Funding unknown: ${facts.fundingUnknown}` });

  const wallet = facts.oldestWallet;
  if (wallet) {
    const days = (now.getTime() - wallet.firstActivityAt.getTime()) / DAY_MS;
    const points = days >= 365 ? SIGNAL_POINTS.walletYear : days >= 90 ? SIGNAL_POINTS.walletQuarter : 0;
    const chain = chainNames[wallet.chainId] ?? `chain ${wallet.chainId}`;
    if (points > 0) reasons.push({ code: "old_wallet", points, words: `Wallet active on ${chain} since ${monthYear(wallet.firstActivityAt)}` });
    if ((wallet.txCount ?? 0) >= ACTIVE_WALLET_TXS)
      reasons.push({ code: "active_wallet", points: SIGNAL_POINTS.activeWallet, words: `Wallet sent ${counted(wallet.txCount!, "transaction")} on ${chain}` });
  }

  const social = facts.social;
  if (social) {
    const years = (now.getTime() - social.createdAt.getTime()) / (365 * DAY_MS);
    const followers = social.followers ?? 0;
    const points = years >= 2 && followers >= 100 ? SIGNAL_POINTS.socialEstablished : years >= 1 ? SIGNAL_POINTS.socialYear : 0;
    if (points > 0) {
      const name = PROVIDER_NAMES[social.provider] ?? social.provider;
      const age = counted(Math.floor(years), "year");
      const audience = social.followers == null ? "" : ` with ${counted(social.followers, "follower")}`;
      reasons.push({ code: "social_account", points, words: `${name} account ${age} old${audience}` });
    }
  }

  if (now.getTime() - facts.accountCreatedAt.getTime() >= 180 * DAY_MS)
    reasons.push({ code: "long_member", points: SIGNAL_POINTS.longMember, words: `Member since ${monthYear(facts.accountCreatedAt)}` });

  const score = Math.max(0, Math.min(100, BASE_SCORE + reasons.reduce((sum, reason) => sum + reason.points, 0)));
  return { score, flagged: byKind.size > 0 || score <= FLAG_SCORE, reasons };
}
