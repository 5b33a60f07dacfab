import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { account, user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { socialAccount } from "#db/schema/social";
import { trustScore } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { CAMPAIGN_ENTERED } from "~/modules/rewards/promise-words";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { deployOnchainFixtures, type OnchainFixtures } from "#tests/setup/onchain-fixtures";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { combineStates, gateStateOf } from "./eligibility.server";
import { gateEntryCheck } from "./gate-entry.server";
import { gatePanelOf, taskGatePanelOf } from "./gate-panels.server";
import { parseGateForm } from "./gate-form.server";
import type { Gate, GateRule } from "./trust-types";

/**
 * Eligibility gates read for real: the database's XP, completions, links and scores, holdings on
 * anvil (a node that does not answer leaves a holding unknown), the gate form's refusals, and the
 * entry check that refuses a gated campaign's or airdrop's task with what is still missing.
 */

const DAY = 86_400_000;
const NOW = new Date("2026-11-20T12:00:00Z");
let localChain: LocalChain;
let fx: OnchainFixtures;
let database: Database;
let chains: ChainRegistry;
const down = localRegistry({ url: "http://127.0.0.1:9", confirmations: 1, webSocket: null });
const db = () => database.db;
/** A campaign live around NOW. */
const open = { startsAt: new Date(NOW.getTime() - 10 * DAY), endsAt: new Date(NOW.getTime() + 10 * DAY), publishedAt: new Date(NOW.getTime() - 10 * DAY) };

// "vet": level 3 (400 XP), a 40-day-old account, a wallet holding 100 coins and an NFT, X linked, trust 70, one campaign of two done.
// "fresh": no XP, 4 days old, no wallet, X needs reconnecting, no trust score, one task of the two.
beforeAll(async () => {
  localChain = await startLocalChain();
  fx = await deployOnchainFixtures(localChain.url);
  database = await createTestDatabase();
  chains = localRegistry({ url: localChain.url, confirmations: 1, webSocket: null });
  await db()
    .insert(user)
    .values([
      { id: "vet", email: "vet@example.com", createdAt: new Date(NOW.getTime() - 40 * DAY) },
      { id: "fresh", email: "fresh@example.com", createdAt: new Date(NOW.getTime() - 4 * DAY - 3_600_000) },
    ]);
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(campaign)
    .values([
      { id: "c1", projectId: "p", slug: "c1", name: "One", ...open },
      { id: "c2", projectId: "p", slug: "c2", name: "Two", ...open },
    ]);
  const published = new Date(NOW.getTime() - DAY);
  await db()
    .insert(task)
    .values(
      ["t1", "t2", "t3"].map((id, i) => ({
        id,
        projectId: "p",
        campaignId: i < 2 ? "c1" : "c2",
        title: id,
        type: "visit_link" as const,
        config: { url: "https://example.com" },
        verification: "none" as const,
        xp: 10,
        publishedAt: published,
      })),
    );
  const done = (userId: string, taskId: string) => ({ id: randomUUID(), taskId, userId, period: "once", status: "approved" as const, submission: {} });
  await db()
    .insert(completion)
    .values([done("vet", "t1"), done("vet", "t2"), done("fresh", "t1")]);
  await db().insert(leaderboardEntry).values({ board: "p:p|all", userId: "vet", score: 400, reachedAt: NOW });
  await db().insert(trustScore).values({ userId: "vet", score: 70 });
  await db()
    .insert(walletAddress)
    .values({ id: randomUUID(), userId: "vet", address: fx.address(1), chainId: LOCAL_CHAIN_ID, isPrimary: true });
  await db()
    .insert(account)
    .values([
      { id: randomUUID(), userId: "vet", providerId: "x", accountId: "x-vet" },
      { id: randomUUID(), userId: "fresh", providerId: "x", accountId: "x-fresh" },
    ]);
  await db()
    .insert(socialAccount)
    .values([
      { provider: "x", accountId: "x-vet", handle: "vet" },
      { provider: "x", accountId: "x-fresh", handle: "fresh", status: "needs_reconnect" },
    ]);
  await fx.send(1, { address: fx.coin, abi: fx.abis.coin, functionName: "mint", args: [parseEther("100")] });
  await fx.send(1, { address: fx.collection, abi: fx.abis.collection, functionName: "mint", args: [1n] });
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

const coinRule = (min: string): GateRule => ({
  kind: "holds_token",
  chainId: LOCAL_CHAIN_ID,
  token: fx.coin,
  minBalance: parseEther(min).toString(),
  symbol: "QLC",
  decimals: 18,
});
const nftRule = (): GateRule => ({
  kind: "holds_nft",
  chainId: LOCAL_CHAIN_ID,
  contract: fx.collection,
  standard: "erc721",
  tokenIds: [],
  minCount: 1,
  name: "Explorer",
});
const stateFor = (userId: string, gate: Gate, registry: ChainRegistry = chains) =>
  gateStateOf({ db: db(), chains: registry, gate, userId, projectId: "p", now: NOW });

describe("gateStateOf", () => {
  const rules: GateRule[] = [
    { kind: "level", min: 3, max: null },
    { kind: "xp", min: 300, max: null },
    { kind: "campaigns_completed", min: 1, max: null },
    { kind: "tasks_completed", min: 2, max: null },
    { kind: "trust_score", min: 60, max: null },
    { kind: "account_age_days", min: 30, max: null },
    { kind: "linked_account", account: "x" },
    { kind: "linked_account", account: "wallet" },
  ];

  it("reads each rule kind for a member who meets it and one who does not, in words", async () => {
    const vet = await stateFor("vet", { combine: "all", rules });
    expect(vet.rules.map((r) => r.state)).toEqual(rules.map(() => "met"));
    expect(vet.passes).toBe(true);
    expect(vet.rules[0]!.words).toBe("Reach level 3 — you are level 3");

    const fresh = await stateFor("fresh", { combine: "all", rules });
    expect(fresh.rules.map((r) => r.state)).toEqual(rules.map(() => "unmet"));
    expect(fresh.passes).toBe(false);
    expect(fresh.rules.map((r) => r.words)).toEqual([
      "Reach level 3 — you are level 1",
      "At least 300 XP in this project — you have 0 XP",
      "Complete at least 1 campaign of this project — you completed 0 campaigns",
      "Complete at least 2 tasks of this project — you completed 1 task",
      "A trust score of 60 or more — yours is not computed yet (see Settings › Trust)",
      "An account at least 30 days old — yours is 4 days old",
      "Link an X account — your X account must be reconnected (Settings › Connections)",
      "Link a wallet — Settings › Profile",
    ]);
  });

  it("reads a maximum too", async () => {
    const state = await stateFor("vet", { combine: "all", rules: [{ kind: "account_age_days", min: null, max: 7 }] });
    expect(state.rules[0]).toMatchObject({ state: "unmet", words: "An account at most 7 days old — yours is 40 days old" });
  });

  it("reads holdings on the chain: one linked wallet holding the minimum", async () => {
    const gate: Gate = { combine: "all", rules: [coinRule("100"), coinRule("150"), nftRule()] };
    const vet = await stateFor("vet", gate);
    expect(vet.rules.map((r) => [r.state, r.words])).toEqual([
      ["met", "Hold at least 100 QLC on Questline Local — you hold 100 QLC"],
      ["unmet", "Hold at least 150 QLC on Questline Local — you hold 100 QLC"],
      ["met", "Hold at least 1 NFT of Explorer on Questline Local — you hold 1 NFT of it"],
    ]);
    const fresh = await stateFor("fresh", gate);
    expect(fresh.rules[0]).toMatchObject({ state: "unmet", detail: "you have no linked wallet (Settings › Profile)" });
  });

  it("leaves a holding unknown when the node does not answer, and the gate with it", async () => {
    const state = await stateFor("vet", { combine: "all", rules: [{ kind: "level", min: 2, max: null }, coinRule("100")] }, down);
    expect(state.rules.map((r) => r.state)).toEqual(["met", "unknown"]);
    expect(state.passes).toBe("unknown");
    // An unmet rule decides an "all" gate whatever the node says.
    expect((await stateFor("fresh", { combine: "all", rules: [{ kind: "level", min: 2, max: null }, coinRule("100")] }, down)).passes).toBe(false);
  });

  it("combines all, any and none", async () => {
    const mixed: GateRule[] = [
      { kind: "level", min: 3, max: null },
      { kind: "linked_account", account: "youtube" },
    ];
    expect((await stateFor("vet", { combine: "all", rules: mixed })).passes).toBe(false);
    expect((await stateFor("vet", { combine: "any", rules: mixed })).passes).toBe(true);
    expect((await stateFor("vet", { combine: "none", rules: mixed })).passes).toBe(false);
    expect((await stateFor("fresh", { combine: "none", rules: mixed })).passes).toBe(true);
    expect(combineStates("any", ["unmet", "unknown"])).toBe("unknown");
    expect(combineStates("none", ["unmet", "unknown"])).toBe("unknown");
    expect(combineStates("none", ["met", "unknown"])).toBe(false);
  });
});

describe("the gate form", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.set(key, value);
    return parseGateForm(data, chains);
  };

  it("reads rules, skipping empty rows; anyone is no gate", async () => {
    const parsed = await form({
      "gate.combine": "any",
      "gate.rules.0.kind": "level",
      "gate.rules.0.min": "5",
      "gate.rules.1.kind": "",
      "gate.rules.3.kind": "holds_token",
      "gate.rules.3.chainId": String(LOCAL_CHAIN_ID),
      "gate.rules.3.token": fx.coin,
      "gate.rules.3.amount": "12.5",
      "gate.rules.3.symbol": "QLC",
      "gate.rules.3.decimals": "18",
    });
    expect(parsed.gate).toEqual({
      ok: true,
      gate: {
        combine: "any",
        rules: [
          { kind: "level", min: 5, max: null },
          { kind: "holds_token", chainId: LOCAL_CHAIN_ID, token: fx.coin, minBalance: parseEther("12.5").toString(), symbol: "QLC", decimals: 18 },
        ],
      },
    });
    expect((await form({ "gate.combine": "" })).gate).toEqual({ ok: true, gate: null });
  });

  it("refuses a rule that can never hold, by field, where it was typed", async () => {
    const parsed = await form({
      "gate.combine": "all",
      "gate.rules.0.kind": "xp",
      "gate.rules.0.min": "500",
      "gate.rules.0.max": "100",
      "gate.rules.2.kind": "holds_nft",
      "gate.rules.2.chainId": String(LOCAL_CHAIN_ID),
      "gate.rules.2.contract": `0x${"ab".repeat(20)}`,
      "gate.rules.2.standard": "erc721",
    });
    expect(parsed.gate).toEqual({
      ok: false,
      code: "invalid",
      errors: { "gate.rules.0.max": "The maximum is below the minimum: no member could ever pass this rule" },
    });
    const noCode = await form({
      "gate.combine": "all",
      "gate.rules.2.kind": "holds_nft",
      "gate.rules.2.chainId": String(LOCAL_CHAIN_ID),
      "gate.rules.2.contract": `0x${"ab".repeat(20)}`,
      "gate.rules.2.standard": "erc721",
      "gate.rules.4.kind": "holds_token",
      "gate.rules.4.chainId": "999999",
      "gate.rules.4.amount": "1",
    });
    expect(noCode.gate).toEqual({
      ok: false,
      code: "invalid",
      errors: {
        "gate.rules.2.contract": `No contract is deployed at 0x${"ab".repeat(20)} on Questline Local: no member could ever hold it`,
        "gate.rules.4.chainId": "chain 999999 is not configured on this server: no holding there can be checked",
      },
    });
  });

  it("refuses more than 10 rules, and rules with nobody choosing how they combine", async () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`gate.rules.${i}.kind`, "linked_account"]));
    expect((await form({ "gate.combine": "all", ...eleven })).gate).toMatchObject({
      ok: false,
      errors: { "gate.combine": "A gate holds at most 10 rules: remove 1" },
    });
    expect((await form({ "gate.combine": "", "gate.rules.0.kind": "level", "gate.rules.0.min": "2" })).gate).toMatchObject({
      ok: false,
      errors: { "gate.combine": expect.stringContaining("Choose how the rules combine") },
    });
  });
});

describe("entering a gated campaign or airdrop", () => {
  it("refuses a task of a gated campaign with what is missing, records nothing, and lets a member who meets it in", async () => {
    const gate: Gate = {
      combine: "all",
      rules: [
        { kind: "level", min: 3, max: null },
        { kind: "linked_account", account: "wallet" },
      ],
    };
    await db()
      .insert(campaign)
      .values({ id: "gated", projectId: "p", slug: "gated", name: "Gated", ...open, gate });
    await db()
      .insert(task)
      .values({
        id: "gt",
        projectId: "p",
        campaignId: "gated",
        title: "Visit",
        type: "visit_link",
        config: { url: "https://example.com" },
        verification: "none",
        xp: 5,
        publishedAt: open.publishedAt,
      });
    const gateCheck = gateEntryCheck({ db: db(), chains });
    const attempt = (userId: string, check: typeof gateCheck | undefined = gateCheck) =>
      attemptTask({ db: db(), taskId: "gt", userId, input: { kind: "visit" }, gateCheck: check, now: NOW });

    expect(await attempt("fresh")).toEqual({
      ok: false,
      code: "not_met",
      message: "You cannot take part in this campaign yet. Still needed: Reach level 3 — you are level 1; Link a wallet — Settings › Profile.",
    });
    // Without the check, a gated task is not taken on trust.
    expect(await attemptTask({ db: db(), taskId: "gt", userId: "fresh", input: { kind: "visit" }, now: NOW })).toMatchObject({
      ok: false,
      code: "unavailable",
    });
    expect(await db().select().from(completion).where(eq(completion.taskId, "gt"))).toEqual([]);

    expect(await attempt("vet")).toMatchObject({ ok: true, status: "approved" });
  });

  it("refuses a task of a gated airdrop the same way; a holding the node cannot read is not refused as unmet", async () => {
    await db()
      .insert(airdrop)
      .values({
        id: "drop",
        projectId: "p",
        slug: "drop",
        name: "Drop",
        asset: "QUEST:31337",
        rule: "pro_rata",
        total: 100n,
        ...open,
        claimDeadline: new Date(NOW.getTime() + 40 * DAY),
        gate: { combine: "all", rules: [coinRule("100")] },
      });
    await db()
      .insert(task)
      .values({
        id: "at",
        projectId: "p",
        airdropId: "drop",
        title: "Visit",
        type: "visit_link",
        config: { url: "https://example.com" },
        verification: "none",
        xp: 5,
        publishedAt: open.publishedAt,
      });
    const attempt = (userId: string, registry: ChainRegistry) =>
      attemptTask({ db: db(), taskId: "at", userId, input: { kind: "visit" }, gateCheck: gateEntryCheck({ db: db(), chains: registry }), now: NOW });
    expect(await attempt("fresh", chains)).toMatchObject({
      ok: false,
      code: "not_met",
      message: expect.stringContaining("this airdrop yet. Still needed: Hold at least 100 QLC"),
    });
    expect(await attempt("vet", down)).toMatchObject({ ok: false, code: "unavailable", message: expect.stringContaining("could not be checked now") });
    expect(await db().select().from(completion).where(eq(completion.taskId, "at"))).toEqual([]);
    expect(await attempt("vet", chains)).toMatchObject({ ok: true });
  });
});

describe("the gate on its page and in the campaign form's save", () => {
  it("shows visitors the rules and members their state", async () => {
    const gate: Gate = { combine: "any", rules: [{ kind: "linked_account", account: "x" }] };
    expect(await gatePanelOf({ db: db(), chains, gate, userId: null, projectId: "p", now: NOW })).toEqual({
      combine: "any",
      passes: null,
      rules: [{ words: "Link an X account", state: null }],
    });
    expect(await gatePanelOf({ db: db(), chains, gate, userId: "vet", projectId: "p", now: NOW })).toEqual({
      combine: "any",
      passes: true,
      rules: [{ words: "Link an X account", state: "met" }],
    });
    expect(await gatePanelOf({ db: db(), chains, gate: null, userId: "vet", projectId: "p", now: NOW })).toBeNull();
    // A task's page shows its campaign's gate.
    expect(
      await taskGatePanelOf({ db: db(), chains, task: { projectId: "p", campaignId: "gated", airdropId: null }, userId: "fresh", now: NOW }),
    ).toMatchObject({
      what: "campaign",
      passes: false,
      rules: [{ state: "unmet" }, { state: "unmet" }],
    });
    expect(await taskGatePanelOf({ db: db(), chains, task: { projectId: "p", campaignId: "c1", airdropId: null }, userId: "fresh", now: NOW })).toBeNull();
  });

  it("saves a campaign's gate, keeps it when the form leaves it out, and clears it for anyone", async () => {
    const input = { name: "Saved", slug: "saved", description: "", startsAt: open.startsAt, endsAt: open.endsAt, published: false };
    const gate: Gate = { combine: "all", rules: [{ kind: "tasks_completed", min: 1, max: null }] };
    const created = await saveCampaign({ db: db(), projectId: "p", input, gate, now: NOW });
    if (!created.ok) throw new Error("not saved");
    expect(created.value.gate).toEqual(gate);
    const kept = await saveCampaign({ db: db(), projectId: "p", campaignId: created.value.id, input: { ...input, name: "Renamed" }, now: NOW });
    expect(kept.ok && kept.value.gate).toEqual(gate);
    const cleared = await saveCampaign({ db: db(), projectId: "p", campaignId: created.value.id, input, gate: null, now: NOW });
    expect(cleared.ok && cleared.value.gate).toBeNull();
  });

  it("keeps what entered members were promised: an entered campaign's gate can be removed, not added or changed", async () => {
    const input = { name: "One", slug: "c1", description: "", startsAt: open.startsAt, endsAt: open.endsAt, published: true };
    const gate: Gate = { combine: "all", rules: [{ kind: "trust_score", min: 60, max: null }] };
    expect(await saveCampaign({ db: db(), projectId: "p", campaignId: "c1", input, gate, now: NOW })).toEqual({
      ok: false,
      code: "invalid",
      errors: { "gate.combine": CAMPAIGN_ENTERED.gate },
    });
    expect((await db().select({ gate: campaign.gate }).from(campaign).where(eq(campaign.id, "c1")))[0]!.gate).toBeNull();
    // A gate saved before anyone entered stays as it is through later edits (read back from jsonb, its keys reordered).
    await db().update(campaign).set({ gate }).where(eq(campaign.id, "c1"));
    const same: Gate = { rules: [{ max: null, min: 60, kind: "trust_score" }], combine: "all" };
    expect((await saveCampaign({ db: db(), projectId: "p", campaignId: "c1", input: { ...input, name: "One, renamed" }, gate: same, now: NOW })).ok).toBe(true);
    const removed = await saveCampaign({ db: db(), projectId: "p", campaignId: "c1", input, gate: null, now: NOW });
    expect(removed.ok).toBe(true);
  });
});
