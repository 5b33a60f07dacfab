import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { project, projectMember } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { MAX_TOKENS_TEXT } from "~/lib/token-amounts";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, checkLedger, credit, memberAvailable, projectTreasury } from "~/modules/ledger/ledger.server";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action as newAirdrop } from "../airdrops/new";
import { action as fundTreasury } from "../projects/rewards";
import { action as editReward } from "./edit";
import { action as newReward } from "./new";

/**
 * Token amounts past what a token can count (a uint256) on every form that takes one: the Fund
 * form, the token reward forms and the airdrop form. Each is answered in its field with a 400,
 * and nothing moves: no amount reaches the database, whose numeric(78, 0) would overflow.
 */
const Q = questAsset(31337);
const HUGE = `1${"0".repeat(80)}`;
const ENDLESS = "9".repeat(10_000);
const NOW = Date.now();
const iso = (days: number) => new Date(NOW + days * 86_400_000).toISOString().slice(0, 16);
let services: Services;
let cookie: string;
const db = () => services.database.db;

beforeAll(async () => {
  services = await createTestServices();
  ({ cookie } = await signedInMember(services, "own"));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db()
    .insert(campaign)
    .values({ id: "c", projectId: "p", slug: "c", name: "Season", startsAt: new Date(NOW + 86_400_000), endsAt: new Date(NOW + 5 * 86_400_000) });
  await credit({ db: db(), key: "gift:own", kind: "credit", userId: "own", asset: Q, amount: 100n * 10n ** 18n });
  await db().insert(rewardPool).values({ id: "pool", campaignId: "c", kind: "token", asset: Q, distribution: "fcfs", winners: 1, amount: 1n });
});
afterAll(() => services.close());

type Answer = { data: { errors: Record<string, string> }; init: { status: number } | null };

const post = (call: (args: never) => Promise<unknown>, path: string, params: Record<string, string>, fields: Record<string, string>) =>
  answer(() =>
    call(routeArgs(services, new Request(`http://localhost:3000${path}`, { method: "POST", headers: { cookie }, body: new URLSearchParams(fields) }), params)),
  ) as Promise<Answer | Response>;

const fund = (amount: string) => post(fundTreasury, "/projects/p/rewards", { project: "p" }, { asset: Q, amount, requestKey: randomUUID() });
const createPool = (fields: Record<string, string>) =>
  post(newReward, "/projects/p/campaigns/c/rewards/new", { project: "p", campaign: "c" }, { kind: "token", asset: Q, ...fields });
const editPool = (fields: Record<string, string>) =>
  post(editReward, "/projects/p/campaigns/c/rewards/pool/edit", { project: "p", campaign: "c", reward: "pool" }, { kind: "token", asset: Q, ...fields });
const createAirdrop = (fields: Record<string, string>) =>
  post(
    newAirdrop,
    "/projects/p/airdrops/new",
    { project: "p" },
    { name: "Drop", slug: "drop", asset: Q, startsAt: iso(1), endsAt: iso(5), claimDeadline: iso(20), published: "on", ...fields },
  );

/** The refusal's status and its errors; a thrown 500 fails the test before this. */
function refused(answer: Answer | Response) {
  if (answer instanceof Response) throw new Error(`answered ${answer.status}, not a field error`);
  expect(answer.init?.status).toBe(400);
  return answer.data.errors;
}

describe("token amounts larger than a token can count", () => {
  it("are refused in the Fund form's amount field, and nothing moves", async () => {
    for (const amount of [HUGE, ENDLESS]) {
      expect(refused(await fund(amount))).toEqual({ amount: `Enter an amount of at most ${MAX_TOKENS_TEXT}, the most a token can count.` });
    }
    expect(await accountBalance({ db: db(), account: memberAvailable("own"), asset: Q })).toBe(100n * 10n ** 18n);
    expect(await accountBalance({ db: db(), account: projectTreasury("p"), asset: Q })).toBe(0n);
  });

  it("are refused in a token reward's fields, and so is a number of winners times an amount past it", async () => {
    const tooLarge = `Enter the tokens each winner gets: at most ${MAX_TOKENS_TEXT}, the most a token can count`;
    for (const amount of [HUGE, ENDLESS]) {
      expect(refused(await createPool({ distribution: "fcfs", winners: "1", amount }))).toEqual({ amount: tooLarge });
      expect(refused(await editPool({ distribution: "fcfs", winners: "1", amount }))).toEqual({ amount: tooLarge });
      expect(refused(await createPool({ distribution: "everyone", total: amount }))).toEqual({
        total: `Enter the tokens to split: at most ${MAX_TOKENS_TEXT}, the most a token can count`,
      });
    }
    // 10,000 winners × 10^56 tokens: each fits, the product (10^78 units) does not.
    const product = { distribution: "fcfs", winners: "10000", amount: `1${"0".repeat(56)}` };
    const productError = `The winners' amounts add up to more than ${MAX_TOKENS_TEXT}, the most a token can count: lower the amounts or the winners`;
    expect(refused(await createPool(product))).toEqual({ amount: productError });
    expect(refused(await editPool({ ...product, distribution: "raffle" }))).toMatchObject({ amount: productError });
    expect(refused(await createPool({ distribution: "ranking", winners: "10000", rankAmounts: `1${"0".repeat(56)}` }))).toEqual({
      rankAmounts: `The winning ranks' amounts add up to more than ${MAX_TOKENS_TEXT}, the most a token can count: lower the amounts or the winners`,
    });
    const pools = await db().select().from(rewardPool);
    expect(pools).toHaveLength(1);
    expect(pools[0]).toMatchObject({ winners: 1, amount: 1n, escrowed: 0n });
  });

  it("are refused in an airdrop's total or rank amounts, and so is a sum of ranks past it", async () => {
    for (const amount of [HUGE, ENDLESS]) {
      expect(refused(await createAirdrop({ rule: "pro_rata", total: amount }))).toEqual({
        total: `Enter the total: at most ${MAX_TOKENS_TEXT}, the most a token can count`,
      });
      expect(refused(await createAirdrop({ rule: "top", rankAmounts: `5, ${amount}` }))).toEqual({
        rankAmounts: `Rank 2's amount "${amount.slice(0, 24)}…" is more than a token can count (at most ${MAX_TOKENS_TEXT})`,
      });
    }
    const ranks = Array.from({ length: 1000 }, () => `1${"0".repeat(57)}`).join(", ");
    expect(refused(await createAirdrop({ rule: "top", rankAmounts: ranks }))).toEqual({
      rankAmounts: `The ranks' amounts add up to more than ${MAX_TOKENS_TEXT}, the most a token can count`,
    });
    expect(await db().select().from(airdrop)).toHaveLength(0);
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });
});
