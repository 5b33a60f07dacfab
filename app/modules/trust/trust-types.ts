import { z } from "zod";

/**
 * The sybil defence's shared words: the kinds of cluster the scoring finds, a score's reasons,
 * the exclusions a team makes and the eligibility gates of campaigns, pools and airdrops.
 * No server imports: pages and the database schema read these too.
 */

/** What the members of a cluster share. */
export const CLUSTER_KINDS = [
  /** Their wallets were first funded by one address (or a chain of member wallets funding each other). */
  "funder",
  /** Their wallets swept their coin to one address. */
  "sweep",
  /** Their accounts were created from one network within a short time. */
  "network",
  /** They completed the same tasks within seconds of each other, again and again. */
  "synchronized",
  /** They submitted the same written answer, proof or link. */
  "same_answer",
  /** One referrer brought many fresh accounts that did little beyond the referral. */
  "referral",
] as const;
export type ClusterKind = (typeof CLUSTER_KINDS)[number];

/** One reason behind a score, in words a member and a team can read, and the points it moved. */
export type TrustReason = {
  /** A stable code for the rule that fired, e.g. `funder_cluster`, `disposable_email`, `old_wallet`. */
  code: string;
  /** Signed: what it added to or took from the score. */
  points: number;
  /** The sentence shown, e.g. "Funded by the same address as 37 other members". */
  words: string;
  /** The cluster behind it, for the team's cluster view (never shown to the member). */
  clusterId?: string;
};

/** A score at or below this is flagged to teams. */
export const FLAG_SCORE = 40;

/** What an exclusion keeps the member out of. */
export const EXCLUSION_SCOPES = ["project", "pool", "airdrop"] as const;
export type ExclusionScope = (typeof EXCLUSION_SCOPES)[number];

export const APPEAL_STATUSES = ["pending", "upheld", "denied"] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

export const TRUST_AUDIT_ACTIONS = ["exclude", "lift", "appeal", "appeal_upheld", "appeal_denied"] as const;
export type TrustAuditAction = (typeof TRUST_AUDIT_ACTIONS)[number];

/* ---------- Eligibility gates ---------- */

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "Enter a 0x address: 0x and 40 hexadecimal characters");
const count = (what: string) =>
  z
    .number({ error: `Enter ${what} as a whole number` })
    .int(`Enter ${what} as a whole number`)
    .min(0, `Enter ${what} as 0 or more`);
const range = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.object({ ...shape, min: count(what).nullable().default(null), max: count(what).nullable().default(null) });

export const LINKABLE_ACCOUNTS = ["wallet", "x", "youtube", "tiktok", "instagram"] as const;
export type LinkableAccount = (typeof LINKABLE_ACCOUNTS)[number];

/** One rule of a gate. Numeric rules take a minimum, a maximum or both. */
export const gateRuleSchema = z
  .discriminatedUnion("kind", [
    range({ kind: z.literal("level") }, "the level"),
    range({ kind: z.literal("xp") }, "the XP"),
    /** Campaigns of this project the member completed (every task approved). */
    range({ kind: z.literal("campaigns_completed") }, "the number of campaigns"),
    /** Tasks of this project the member has approved. */
    range({ kind: z.literal("tasks_completed") }, "the number of tasks"),
    range({ kind: z.literal("trust_score") }, "the trust score"),
    /** Days since the member's account was created. */
    range({ kind: z.literal("account_age_days") }, "the account's age in days"),
    z.object({
      kind: z.literal("holds_token"),
      chainId: z.number({ error: "Choose a network" }).int().positive(),
      /** Null: the chain's native coin. */
      token: address.nullable(),
      /** In the token's smallest unit, a decimal string. */
      minBalance: z.string().regex(/^\d{1,78}$/, "Enter a whole amount"),
      symbol: z.string().trim().max(12).default(""),
      decimals: z.number().int().min(0).max(36).default(18),
    }),
    z.object({
      kind: z.literal("holds_nft"),
      chainId: z.number({ error: "Choose a network" }).int().positive(),
      contract: address,
      standard: z.enum(["erc721", "erc1155"], { error: "Choose ERC-721 or ERC-1155" }),
      tokenIds: z
        .array(z.string().regex(/^\d{1,78}$/, "Token ids are whole numbers"))
        .max(20)
        .default([]),
      minCount: z.number().int().min(1, "At least 1").max(1_000_000).default(1),
      name: z.string().trim().max(60).default(""),
    }),
    z.object({ kind: z.literal("linked_account"), account: z.enum(LINKABLE_ACCOUNTS, { error: "Choose an account kind" }) }),
  ])
  .superRefine((rule, ctx) => {
    if ("min" in rule && rule.min != null && rule.max != null && rule.min > rule.max)
      ctx.addIssue({ code: "custom", path: ["max"], message: "The maximum is below the minimum: no member could ever pass this rule" });
    if ("min" in rule && rule.min == null && rule.max == null) ctx.addIssue({ code: "custom", path: ["min"], message: "Give a minimum, a maximum or both" });
    if (rule.kind === "trust_score" && ((rule.min ?? 0) > 100 || (rule.max ?? 0) > 100))
      ctx.addIssue({ code: "custom", path: ["min"], message: "A trust score is between 0 and 100" });
    if (rule.kind === "holds_nft" && rule.standard === "erc1155" && rule.tokenIds.length === 0)
      ctx.addIssue({ code: "custom", path: ["tokenIds"], message: "An ERC-1155 contract counts per token id: name the ids that count" });
  });
export type GateRule = z.infer<typeof gateRuleSchema>;
export type GateRuleKind = GateRule["kind"];

/** How a gate's rules combine: every one must hold, at least one, or none. */
export const GATE_COMBINES = ["all", "any", "none"] as const;
export type GateCombine = (typeof GATE_COMBINES)[number];

export const gateSchema = z.object({
  combine: z.enum(GATE_COMBINES),
  rules: z.array(gateRuleSchema).min(1, "Add at least one rule, or remove the gate").max(10, "A gate holds at most 10 rules"),
});
export type Gate = z.infer<typeof gateSchema>;

/** One rule's state for one member: the "what you still need" list. `unknown`: it could not be read now (a node down). */
export type RuleState = { rule: GateRule; words: string; state: "met" | "unmet" | "unknown"; detail?: string };
export type GateState = { combine: GateCombine; passes: boolean | "unknown"; rules: RuleState[] };
