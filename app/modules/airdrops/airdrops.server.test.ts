import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, airdropEscrow, checkLedger, credit, projectTreasury } from "~/modules/ledger/ledger.server";
import { fundProject } from "~/modules/rewards/treasury.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { airdropSchema } from "./airdrop.schema";
import { saveAirdrop } from "./airdrops.server";

const E = 10n ** 18n;
const Q = questAsset(31337);
const T = new Date("2026-11-20T12:00:00Z");
const iso = (days: number) => new Date(T.getTime() + days * 86_400_000).toISOString();
const CHAINS = new Set([31337]);
let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db().insert(user).values({ id: "own", email: "own@example.com", name: "own" });
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await credit({ db: db(), key: "gift:own", kind: "credit", userId: "own", asset: Q, amount: 500n * E });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  const funded = await fundProject({ db: db(), projectId: "p", actorId: "own", input: { asset: Q, amount: 500n * E, requestKey: "fund-1" } });
  if (!funded.ok) throw new Error("the treasury was not funded");
});
afterAll(() => database.close());

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  const all = {
    name: "Season drop",
    slug: "season-drop",
    asset: Q,
    rule: "pro_rata",
    total: "400",
    startsAt: iso(1),
    endsAt: iso(10),
    claimDeadline: iso(40),
    ...fields,
  };
  for (const [key, value] of Object.entries(all)) data.set(key, value);
  return parseForm(airdropSchema, data);
};

describe("the airdrop form", () => {
  it("refuses dates out of order, a short claim window, and amounts that are not above 0, field by field", () => {
    expect(form({ endsAt: iso(0) })).toMatchObject({ ok: false, errors: { endsAt: "The end comes after the start" } });
    expect(form({ claimDeadline: iso(10.5) })).toMatchObject({ ok: false, errors: { claimDeadline: "Claims close at least a day after the end" } });
    expect(form({ total: "0" })).toMatchObject({ ok: false, errors: { total: expect.stringContaining("above 0") } });
    expect(form({ rule: "top", rankAmounts: "5, 0" })).toMatchObject({ ok: false, errors: { rankAmounts: 'Rank 2\'s amount "0" is not a number above 0' } });
    expect(form({ rule: "top", rankAmounts: "" })).toMatchObject({ ok: false, errors: { rankAmounts: expect.stringContaining("best first") } });
    expect(form({ asset: "nope" })).toMatchObject({ ok: false, errors: { asset: "Choose the token the airdrop pays" } });
  });

  it("reads a top airdrop's total as the sum of its ranks", () => {
    const top = form({ rule: "top", rankAmounts: "300, 200.5\n100" });
    expect(top).toMatchObject({ ok: true, data: { total: (6005n * E) / 10n, rankAmounts: [300n * E, (2005n * E) / 10n, 100n * E] } });
  });
});

describe("saveAirdrop", () => {
  const save = async (fields: Record<string, string>, airdropId?: string, now = T) => {
    const parsed = form(fields);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return saveAirdrop({ db: db(), projectId: "p", airdropId, input: parsed.data, distributorChains: CHAINS, now });
  };

  it("refuses a token without an airdrop contract, and publishing more than the treasury holds", async () => {
    expect(await save({ asset: "QUEST:56" })).toMatchObject({ ok: false, errors: { asset: expect.stringContaining("no airdrop contract") } });
    expect(await save({ total: "600", published: "on" })).toMatchObject({
      ok: false,
      errors: { total: expect.stringContaining("holds 500 QUEST, not the 600 QUEST") },
    });
    expect(await db().select().from(airdrop)).toEqual([]);
  });

  it("holds a published airdrop's total in escrow from the treasury: edits move the difference, unpublishing returns it", async () => {
    const escrow = (id: string) => accountBalance({ db: db(), account: airdropEscrow(id), asset: Q });
    const treasury = () => accountBalance({ db: db(), account: projectTreasury("p"), asset: Q });
    const draft = await save({ slug: "escrowed" });
    if (!draft.ok) throw new Error("not saved");
    expect([await escrow(draft.airdrop.id), await treasury()]).toEqual([0n, 500n * E]);
    await save({ slug: "escrowed", published: "on" }, draft.airdrop.id);
    expect([await escrow(draft.airdrop.id), await treasury()]).toEqual([400n * E, 100n * E]);
    await save({ slug: "escrowed", published: "on", total: "350" }, draft.airdrop.id);
    await save({ slug: "escrowed", published: "on", total: "350" }, draft.airdrop.id);
    expect([await escrow(draft.airdrop.id), await treasury()]).toEqual([350n * E, 150n * E]);
    await save({ slug: "escrowed" }, draft.airdrop.id);
    expect([await escrow(draft.airdrop.id), await treasury()]).toEqual([0n, 500n * E]);
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
    await db().delete(airdrop);
  });

  it("saves a draft, publishes it, keeps a live airdrop's token and rule, and refuses changes once it ended", async () => {
    const draft = await save({});
    if (!draft.ok) throw new Error("not saved");
    expect(draft.airdrop).toMatchObject({ total: 400n * E, publishedAt: null, status: "open" });
    expect(await save({}, undefined)).toMatchObject({ ok: false, errors: { slug: "This project already uses that address" } });
    const published = await save({ published: "on" }, draft.airdrop.id);
    expect(published).toMatchObject({ ok: true, airdrop: { publishedAt: T } });
    const live = new Date(T.getTime() + 2 * 86_400_000);
    expect(await save({ published: "on", rule: "top", rankAmounts: "100" }, draft.airdrop.id, live)).toMatchObject({
      ok: false,
      errors: { rule: "This airdrop is live: its token and how it shares cannot change." },
    });
    expect(await save({ published: "on", total: "450" }, draft.airdrop.id, live)).toMatchObject({ ok: true, airdrop: { total: 450n * E } });
    expect(await save({ published: "on", total: "501" }, draft.airdrop.id, live)).toMatchObject({
      ok: false,
      errors: { total: expect.stringContaining("holds 50 QUEST, not the 501 QUEST") },
    });
    const ended = new Date(T.getTime() + 10 * 86_400_000);
    expect(await save({ published: "on" }, draft.airdrop.id, ended)).toMatchObject({
      ok: false,
      errors: { form: "This airdrop has ended: it can no longer change." },
    });
  });
});
