import { eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { campaign } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { gateStateOf, storedGate } from "./eligibility.server";
import { ruleWords } from "./gate-words";
import type { GateCombine, GateState, RuleState } from "./trust-types";

/** A gate as a page shows it ("what you still need"): each rule's words, with the member's state, or none for a visitor. */
export type GatePanelData = {
  combine: GateCombine;
  /** Null for a visitor: the rules without states. */
  passes: GateState["passes"] | null;
  rules: { words: string; state: RuleState["state"] | null }[];
};

/** The gate of a campaign, pool or airdrop for its page: null when anyone may take part. */
export async function gatePanelOf({
  db,
  chains,
  gate,
  userId,
  projectId,
  now = new Date(),
}: {
  db: Db;
  chains: OnchainChains;
  gate: unknown;
  userId: string | null;
  projectId: string;
  now?: Date;
}): Promise<GatePanelData | null> {
  const parsed = storedGate(gate);
  if (parsed === null) return null;
  if (parsed === "unreadable")
    return {
      combine: "all",
      passes: userId ? false : null,
      rules: [{ words: "The entry rules cannot be read: the team must save them again", state: userId ? "unknown" : null }],
    };
  if (!userId) return { combine: parsed.combine, passes: null, rules: parsed.rules.map((rule) => ({ words: ruleWords(rule), state: null })) };
  const state = await gateStateOf({ db, chains, gate: parsed, userId, projectId, now, reads: "page" });
  return { combine: state.combine, passes: state.passes, rules: state.rules.map((r) => ({ words: r.words, state: r.state })) };
}

/** The gate of the campaign or airdrop holding a task, for the task's page (a task of neither, or of an open one: null). */
export async function taskGatePanelOf({
  db,
  chains,
  task: t,
  userId,
  now = new Date(),
}: {
  db: Db;
  chains: OnchainChains;
  task: { projectId: string; campaignId: string | null; airdropId: string | null };
  userId: string | null;
  now?: Date;
}): Promise<(GatePanelData & { what: "campaign" | "airdrop" }) | null> {
  const [holder] = t.campaignId
    ? (await db.select({ gate: campaign.gate }).from(campaign).where(eq(campaign.id, t.campaignId))).map((r) => ({ ...r, what: "campaign" as const }))
    : t.airdropId
      ? (await db.select({ gate: airdrop.gate }).from(airdrop).where(eq(airdrop.id, t.airdropId))).map((r) => ({ ...r, what: "airdrop" as const }))
      : [];
  if (!holder) return null;
  const panel = await gatePanelOf({ db, chains, gate: holder.gate, userId, projectId: t.projectId, now });
  return panel && { ...panel, what: holder.what };
}
