import { and, countDistinct, eq, sql } from "drizzle-orm";
import { getAddress, type Address } from "viem";
import { account, user } from "#db/schema/auth";
import { campaign, completion, task } from "#db/schema/quests";
import { socialAccount } from "#db/schema/social";
import { trustScore } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import type { FieldErrors } from "~/lib/result";
import { isNodeFailure } from "~/modules/chain/node-errors.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { levelOf } from "~/modules/leaderboards/progress";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { onchainTargetRefusals } from "~/modules/tasks/onchain-targets.server";
import { holdingOf } from "~/modules/tasks/recheck-holdings.server";
import { ACCOUNT_WORDS, holdingAmount, holdingUnit, networkName, ruleWords } from "./gate-words";
import { gateSchema, type Gate, type GateCombine, type GateRule, type GateState, type RuleState } from "./trust-types";

/**
 * Eligibility gates (issue #38): who may take part in a campaign, a reward pool or an airdrop.
 * `gateStateOf` reads each rule for one member, in words ("Reach level 5 — you are level 3"), and
 * combines them (all / any / none). A holding is read on the chain as the holding tasks' re-check
 * reads it (one linked wallet holding the minimum); a node that cannot answer leaves that rule
 * `unknown`, never unmet. A member without a trust score yet does not pass a score rule: the score
 * is what the rule asks for, and there is none to show. `gateRefusals` refuses, before saving, a
 * rule that could never hold. The entry check is in gate-entry.server.ts, the pages' panels in
 * gate-panels.server.ts.
 */

const DAY = 86_400_000;

/** What the member's rules read, each loaded once and only when a rule asks for it. */
function memberFacts(db: Db, userId: string, projectId: string, now: Date) {
  const once = <T>(load: () => Promise<T>) => {
    let value: Promise<T> | null = null;
    return () => (value ??= load());
  };
  return {
    xp: once(async () => {
      const [row] = await db
        .select({ score: leaderboardEntry.score })
        .from(leaderboardEntry)
        .where(and(eq(leaderboardEntry.board, boardKey({ kind: "project", projectId }, "all")), eq(leaderboardEntry.userId, userId)));
      return row?.score ?? 0;
    }),
    tasksCompleted: once(async () => {
      const [row] = await db
        .select({ n: countDistinct(completion.taskId) })
        .from(completion)
        .innerJoin(task, eq(task.id, completion.taskId))
        .where(and(eq(task.projectId, projectId), eq(completion.userId, userId), eq(completion.status, "approved")));
      return row?.n ?? 0;
    }),
    // A campaign is completed when every one of its published tasks is approved (as its pools' completers are).
    campaignsCompleted: once(async () => {
      const at = now.toISOString();
      const rows = await db
        .select({ campaignId: task.campaignId })
        .from(task)
        .innerJoin(campaign, eq(campaign.id, task.campaignId))
        .leftJoin(completion, and(eq(completion.taskId, task.id), eq(completion.userId, userId), eq(completion.status, "approved")))
        .where(and(eq(campaign.projectId, projectId), sql`${task.publishedAt} is not null and ${task.publishedAt} <= ${at}::timestamptz`))
        .groupBy(task.campaignId)
        .having(sql`count(distinct ${task.id}) = count(distinct ${completion.taskId})`);
      return rows.length;
    }),
    trustScore: once(async () => {
      const [row] = await db.select({ score: trustScore.score }).from(trustScore).where(eq(trustScore.userId, userId));
      return row?.score ?? null;
    }),
    createdAt: once(async () => {
      const [row] = await db.select({ createdAt: user.createdAt }).from(user).where(eq(user.id, userId));
      return row?.createdAt ?? now;
    }),
    wallets: once(async () => {
      const rows = await db
        .selectDistinct({ address: sql<string>`lower(${walletAddress.address})` })
        .from(walletAddress)
        .where(eq(walletAddress.userId, userId));
      return rows.map((r) => getAddress(r.address) as Address);
    }),
    social: once(async () => {
      const rows = await db
        .select({ provider: account.providerId, status: socialAccount.status })
        .from(account)
        .leftJoin(socialAccount, and(eq(socialAccount.provider, account.providerId), eq(socialAccount.accountId, account.accountId)))
        .where(eq(account.userId, userId));
      return new Map(rows.map((r) => [r.provider, r.status ?? "active"]));
    }),
  };
}
type Facts = ReturnType<typeof memberFacts>;

const within = (value: number, rule: { min: number | null; max: number | null }) =>
  (rule.min === null || value >= rule.min) && (rule.max === null || value <= rule.max);

/** A rule's state, with the member's side in words after the rule's. */
function stateOf(rule: GateRule, state: RuleState["state"], detail?: string): RuleState {
  const words = ruleWords(rule);
  return detail === undefined ? { rule, words, state } : { rule, words: `${words} — ${detail}`, state, detail };
}

const plural = (value: number, one: string, many: string) => `${value.toLocaleString("en")} ${value === 1 ? one : many}`;

async function ruleState(rule: GateRule, facts: Facts, chains: OnchainChains, reads: "page" | "job", now: Date): Promise<RuleState> {
  const ranged = (value: number, detail: string) => stateOf(rule, within(value, rule as { min: number | null; max: number | null }) ? "met" : "unmet", detail);
  switch (rule.kind) {
    case "level": {
      const { level } = levelOf(await facts.xp());
      return ranged(level, `you are level ${level}`);
    }
    case "xp": {
      const xp = await facts.xp();
      return ranged(xp, `you have ${xp.toLocaleString("en")} XP`);
    }
    case "campaigns_completed": {
      const done = await facts.campaignsCompleted();
      return ranged(done, `you completed ${plural(done, "campaign", "campaigns")}`);
    }
    case "tasks_completed": {
      const done = await facts.tasksCompleted();
      return ranged(done, `you completed ${plural(done, "task", "tasks")}`);
    }
    case "trust_score": {
      const score = await facts.trustScore();
      if (score === null) return stateOf(rule, "unmet", "yours is not computed yet (see Settings › Trust)");
      return ranged(score, `yours is ${score} (see Settings › Trust)`);
    }
    case "account_age_days": {
      const days = Math.max(0, Math.floor((now.getTime() - (await facts.createdAt()).getTime()) / DAY));
      return ranged(days, `yours is ${plural(days, "day", "days")} old`);
    }
    case "linked_account": {
      if (rule.account === "wallet") return (await facts.wallets()).length > 0 ? stateOf(rule, "met") : stateOf(rule, "unmet", "Settings › Profile");
      const status = (await facts.social()).get(rule.account);
      if (status === "active") return stateOf(rule, "met");
      const label = ACCOUNT_WORDS[rule.account].replace(/^an? /, "");
      return stateOf(rule, "unmet", status ? `your ${label} must be reconnected (Settings › Connections)` : "Settings › Connections");
    }
    case "holds_token":
    case "holds_nft":
      return holdingState(rule, facts, chains, reads);
  }
}

/** The most one linked wallet holds, as the holding tasks read it (holdingOf): met when one wallet holds the minimum. */
async function holdingState(
  rule: Extract<GateRule, { kind: "holds_token" | "holds_nft" }>,
  facts: Facts,
  chains: OnchainChains,
  reads: "page" | "job",
): Promise<RuleState> {
  const holding = holdingOf(
    rule.kind === "holds_token"
      ? {
          type: "hold_token",
          config: {
            chainId: rule.chainId,
            tokenAddress: rule.token,
            minBalance: rule.minBalance,
            symbol: rule.symbol,
            decimals: rule.decimals,
            snapshotBlock: null,
            recheckBeforeRewards: true,
          },
        }
      : {
          type: "nft_hold",
          config: {
            chainId: rule.chainId,
            contract: rule.contract,
            standard: rule.standard,
            tokenIds: rule.tokenIds,
            minCount: rule.minCount,
            name: rule.name,
            recheckBeforeRewards: true,
          },
        },
  );
  const network = networkName(rule.chainId);
  const chain = chains.get(rule.chainId);
  if (!holding || !chain) return stateOf(rule, "unknown", `${network} cannot be read from this server`);
  const wallets = await facts.wallets();
  if (wallets.length === 0) return stateOf(rule, "unmet", "you have no linked wallet (Settings › Profile)");
  let held = 0n;
  try {
    for (const owner of wallets) {
      const amount = await holding.read(reads === "page" ? chain.pageClient : chain.client, owner);
      if (amount > held) held = amount;
      if (held >= holding.needed) break;
    }
  } catch (error) {
    if (isNodeFailure(error)) return stateOf(rule, "unknown", `the ${network} node could not be reached; try again later`);
    // The contract answered with an error (it does not count holdings): nothing is held there.
    return stateOf(rule, "unmet", `the contract on ${network} did not answer with a balance`);
  }
  const detail =
    rule.kind === "holds_token" ? `you hold ${holdingAmount(rule, held)} ${holdingUnit(rule)}` : `you hold ${plural(Number(held), "NFT", "NFTs")} of it`;
  return stateOf(rule, held >= holding.needed ? "met" : "unmet", detail);
}

/** Whether the gate lets the member in, from its rules' states: `unknown` when an unread rule could decide it. */
export function combineStates(combine: GateCombine, states: readonly RuleState["state"][]): GateState["passes"] {
  const has = (s: RuleState["state"]) => states.includes(s);
  switch (combine) {
    case "all":
      return has("unmet") ? false : has("unknown") ? "unknown" : true;
    case "any":
      return has("met") ? true : has("unknown") ? "unknown" : false;
    case "none":
      return has("met") ? false : has("unknown") ? "unknown" : true;
  }
}

/** Each of the gate's rules for one member, and whether the gate lets them in (`unknown` when a node could not answer). */
export async function gateStateOf({
  db,
  chains,
  gate,
  userId,
  projectId,
  now,
  reads = "job",
}: {
  db: Db;
  chains: OnchainChains;
  gate: Gate;
  userId: string;
  projectId: string;
  now: Date;
  /** Which of a chain's clients reads holdings: `page` while the member waits, `job` (the default) in payouts and freezes. */
  reads?: "page" | "job";
}): Promise<GateState> {
  const facts = memberFacts(db, userId, projectId, now);
  const rules: RuleState[] = [];
  for (const rule of gate.rules) rules.push(await ruleState(rule, facts, chains, reads, now));
  return {
    combine: gate.combine,
    passes: combineStates(
      gate.combine,
      rules.map((r) => r.state),
    ),
    rules,
  };
}

/** A stored gate, read again (jsonb from an older shape refuses to parse): null for none. */
export function storedGate(value: unknown): Gate | null | "unreadable" {
  if (value == null) return null;
  const parsed = gateSchema.safeParse(value);
  return parsed.success ? parsed.data : "unreadable";
}

/**
 * Rules that could never hold, refused before a gate is saved (min above max is the schema's):
 * a holding on a chain this server does not read, or a token or collection with no code on its
 * chain (onchainTargetRefusals, as the on-chain tasks' forms ask). By field, `gate.rules.<i>.<field>`.
 */
export async function gateRefusals(gate: Gate | null, chains: OnchainChains): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!gate) return errors;
  await Promise.all(
    gate.rules.map(async (rule, i) => {
      if (rule.kind !== "holds_token" && rule.kind !== "holds_nft") return;
      if (!chains.get(rule.chainId)) {
        errors[`gate.rules.${i}.chainId`] = `${networkName(rule.chainId)} is not configured on this server: no holding there can be checked`;
        return;
      }
      if (rule.kind === "holds_token" && rule.token === null) return;
      const found =
        rule.kind === "holds_token"
          ? await onchainTargetRefusals({ chains, type: "hold_token", config: { chainId: rule.chainId, tokenAddress: rule.token } })
          : await onchainTargetRefusals({ chains, type: "nft_hold", config: { chainId: rule.chainId, contract: rule.contract } });
      const message = Object.values(found)[0];
      if (message) {
        const field = `gate.rules.${i}.${rule.kind === "holds_token" ? "token" : "contract"}`;
        errors[field] = message.startsWith("No contract") ? `${message}: no member could ever hold it` : message;
      }
    }),
  );
  return errors;
}
