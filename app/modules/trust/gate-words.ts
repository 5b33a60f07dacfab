import { formatAmount } from "~/lib/token-amounts";
import { CHAIN_NAMES, NATIVE_SYMBOLS, shortAddress } from "~/wallet/chains";
import type { Gate, GateCombine, GateRule, LinkableAccount } from "./trust-types";

/**
 * A gate's rules in words, as a visitor reads them on a campaign, pool or airdrop page, and as the
 * member's "what you still need" starts each line. Pure: the pages and the server share it.
 */

export const ACCOUNT_WORDS: Record<LinkableAccount, string> = {
  wallet: "a wallet",
  x: "an X account",
  youtube: "a YouTube account",
  tiktok: "a TikTok account",
  instagram: "an Instagram account",
};

export const COMBINE_WORDS: Record<GateCombine, string> = {
  all: "Every one of these",
  any: "At least one of these",
  none: "None of these",
};

export const networkName = (chainId: number) => CHAIN_NAMES[chainId] ?? `chain ${chainId}`;

const n = (value: number) => value.toLocaleString("en");

/** "at least 5", "at most 5", "between 3 and 5", over `unit` ("5 days" etc. are the caller's). */
function bounds(min: number | null, max: number | null, show: (value: number) => string) {
  if (min !== null && max !== null) return min === max ? `exactly ${show(min)}` : `between ${show(min)} and ${show(max)}`;
  if (min !== null) return `at least ${show(min)}`;
  return `at most ${show(max ?? 0)}`;
}

/** The token a holding rule names, as members know it: its symbol, or the chain's coin. */
export function holdingUnit(rule: Extract<GateRule, { kind: "holds_token" }>) {
  return rule.symbol || (rule.token ? `tokens of ${shortAddress(rule.token) ?? rule.token}` : (NATIVE_SYMBOLS[rule.chainId] ?? "ETH"));
}

/** A token amount in the rule's decimals (the chain's coin has 18). */
export const holdingAmount = (rule: Extract<GateRule, { kind: "holds_token" }>, units: bigint) =>
  formatAmount(units, { maxFraction: 6, decimals: rule.token ? rule.decimals : 18 });

/** What one rule asks, in words: "Reach level 5", "Hold at least 100 QUEST on Questline Local", "Link an X account". */
export function ruleWords(rule: GateRule): string {
  switch (rule.kind) {
    case "level":
      if (rule.min !== null && rule.max === null) return `Reach level ${n(rule.min)}`;
      return `A level ${bounds(rule.min, rule.max, n)}`;
    case "xp":
      return `${bounds(rule.min, rule.max, n).replace(/^./, (c) => c.toUpperCase())} XP in this project`;
    case "campaigns_completed":
      return `Complete ${bounds(rule.min, rule.max, (v) => `${n(v)} ${v === 1 ? "campaign" : "campaigns"}`)} of this project`;
    case "tasks_completed":
      return `Complete ${bounds(rule.min, rule.max, (v) => `${n(v)} ${v === 1 ? "task" : "tasks"}`)} of this project`;
    case "trust_score":
      if (rule.min !== null && rule.max === null) return `A trust score of ${rule.min} or more`;
      if (rule.max !== null && rule.min === null) return `A trust score of ${rule.max} or less`;
      return `A trust score between ${rule.min} and ${rule.max}`;
    case "account_age_days":
      return `An account ${bounds(rule.min, rule.max, (v) => `${n(v)} ${v === 1 ? "day" : "days"}`)} old`;
    case "holds_token":
      return `Hold at least ${holdingAmount(rule, BigInt(rule.minBalance))} ${holdingUnit(rule)} on ${networkName(rule.chainId)}`;
    case "holds_nft": {
      const what = rule.name || `the collection ${shortAddress(rule.contract) ?? rule.contract}`;
      const ids = rule.tokenIds.length > 0 ? ` (token ${rule.tokenIds.length === 1 ? "id" : "ids"} ${rule.tokenIds.join(", ")})` : "";
      return `Hold at least ${n(rule.minCount)} ${rule.minCount === 1 ? "NFT" : "NFTs"} of ${what}${ids} on ${networkName(rule.chainId)}`;
    }
    case "linked_account":
      return `Link ${ACCOUNT_WORDS[rule.account]}`;
  }
}

/** The gate as a visitor reads it: how the rules combine, and each rule's words. */
export function gateWords(gate: Gate) {
  return { heading: COMBINE_WORDS[gate.combine], rules: gate.rules.map(ruleWords) };
}

/** Whether one rule's state counts for the member under the gate's combination (a met rule is what a "none" gate refuses). */
export const ruleCounts = (combine: GateCombine, state: "met" | "unmet" | "unknown") =>
  state === "unknown" ? "unknown" : (combine === "none" ? state === "unmet" : state === "met") ? "good" : "bad";
