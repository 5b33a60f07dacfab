import { formatUnits } from "viem";
import type { Gate, GateCombine, GateRule, GateRuleKind } from "./trust-types";

/**
 * The gate editor's fields as typed (every value a string), named `gate.combine` and
 * `gate.rules.<i>.<field>`: what the form shows again beside its errors, and a stored gate turned
 * back into fields. Pure: the editor and the parser share it.
 */

/** The fields a rule's row may carry; each kind reads its own. */
export const RULE_FIELDS = [
  "kind",
  "min",
  "max",
  "chainId",
  "token",
  "amount",
  "symbol",
  "decimals",
  "contract",
  "standard",
  "tokenIds",
  "minCount",
  "name",
  "account",
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];
export type RuleValues = Record<RuleField, string> & { kind: GateRuleKind | "" };
/** `combine` "": anyone may take part (no gate). */
export type GateValues = { combine: GateCombine | ""; rules: RuleValues[] };

export const MAX_GATE_RULES = 10;

export const RULE_KIND_LABELS: Record<GateRuleKind, string> = {
  level: "Level",
  xp: "XP in this project",
  campaigns_completed: "Campaigns completed",
  tasks_completed: "Tasks completed",
  holds_token: "Holds a token",
  holds_nft: "Holds an NFT",
  linked_account: "Linked account",
  trust_score: "Trust score",
  account_age_days: "Account age (days)",
};

export const RANGED_KINDS = [
  "level",
  "xp",
  "campaigns_completed",
  "tasks_completed",
  "trust_score",
  "account_age_days",
] as const satisfies readonly GateRuleKind[];

export const emptyRule = (kind: RuleValues["kind"] = ""): RuleValues => ({
  kind,
  min: "",
  max: "",
  chainId: "",
  token: "",
  amount: "",
  symbol: "",
  decimals: "18",
  contract: "",
  standard: "erc721",
  tokenIds: "",
  minCount: "1",
  name: "",
  account: "x",
});

const text = (value: number | null | undefined) => (value == null ? "" : String(value));

/** A stored rule as the editor's fields (a token amount in its decimals). */
export function ruleValues(rule: GateRule): RuleValues {
  const row = emptyRule(rule.kind);
  switch (rule.kind) {
    case "holds_token":
      return {
        ...row,
        chainId: String(rule.chainId),
        token: rule.token ?? "",
        amount: formatUnits(BigInt(rule.minBalance), rule.token ? rule.decimals : 18),
        symbol: rule.symbol,
        decimals: String(rule.decimals),
      };
    case "holds_nft":
      return {
        ...row,
        chainId: String(rule.chainId),
        contract: rule.contract,
        standard: rule.standard,
        tokenIds: rule.tokenIds.join(", "),
        minCount: String(rule.minCount),
        name: rule.name,
      };
    case "linked_account":
      return { ...row, account: rule.account };
    default:
      return { ...row, min: text(rule.min), max: text(rule.max) };
  }
}

/** A stored gate as the editor's fields; no gate: anyone. */
export const gateValues = (gate: Gate | null | undefined): GateValues =>
  gate ? { combine: gate.combine, rules: gate.rules.map(ruleValues) } : { combine: "", rules: [] };
