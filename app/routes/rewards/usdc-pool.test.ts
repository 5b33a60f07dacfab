import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { assetOf } from "~/modules/ledger/assets";
import { accountBalance, checkLedger, credit, memberAvailable, poolEscrow, projectTreasury } from "~/modules/ledger/ledger.server";
import { poolHeadline } from "~/modules/rewards/pool-words";
import type { Services } from "~/services/services.server";
import { LISTED_USDC, twoVaultRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action as fundTreasury } from "../projects/rewards";
import { loader as showCampaign } from "../campaigns/show";
import { action as editReward, loader as editPage } from "./edit";
import { action as newReward, loader as newPage } from "./new";

/**
 * A USDC reward, end to end through the screens: USDC (6 decimals, as the stand-in on the second
 * local chain) is funded, escrowed, stored and shown in its own units, never in QUEST's 18.
 */
const USDC = assetOf("USDC", SECOND_LOCAL_CHAIN_ID);
/** One USDC in its units. */
const ONE = 1_000_000n;
const NOW = Date.now();
let services: Services;
let cookie: string;
const db = () => services.database.db;

beforeAll(async () => {
  const base = await createTestServices();
  // Vaults on both local chains, USDC of 6 decimals on the second (the registry's own builder; nothing here calls a node).
  services = {
    ...base,
    chains: twoVaultRegistry({ tokens: [LISTED_USDC] }),
  };
  ({ cookie } = await signedInMember(services, "own"));
  await db().insert(project).values({ id: "p", slug: "p", name: "P", rewardAsset: USDC });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db()
    .insert(campaign)
    .values({ id: "c", projectId: "p", slug: "c", name: "Season", startsAt: new Date(NOW + 86_400_000), endsAt: new Date(NOW + 5 * 86_400_000) });
  await credit({ db: db(), key: "gift:own", kind: "credit", userId: "own", asset: USDC, amount: 100n * ONE });
});
afterAll(() => services.close());

type Refused = { data: { errors: Record<string, string> }; init: { status: number } | null };

const request = (path: string, fields?: Record<string, string>) =>
  new Request(`http://localhost:3000${path}`, fields ? { method: "POST", headers: { cookie }, body: new URLSearchParams(fields) } : { headers: { cookie } });
const params = { project: "p", campaign: "c" };
const create = (fields: Record<string, string>) =>
  answer(() => newReward(routeArgs(services, request("/projects/p/campaigns/c/rewards/new", { kind: "token", asset: USDC, ...fields }), params)));
const treasury = () => accountBalance({ db: db(), account: projectTreasury("p"), asset: USDC });

describe("a USDC token reward", () => {
  it("is funded from the member's balance in USDC's 6 decimals", async () => {
    const funded = await answer(() =>
      fundTreasury(routeArgs(services, request("/projects/p/rewards", { asset: USDC, amount: "40.5", requestKey: randomUUID() }), { project: "p" })),
    );
    expect((funded as Response).status).toBe(302);
    expect(await treasury()).toBe(40_500_000n);
    expect(await accountBalance({ db: db(), account: memberAvailable("own"), asset: USDC })).toBe(59_500_000n);
  });

  it("is offered on the create screen with its decimals, the rewards token preselected", async () => {
    const page = await newPage(routeArgs(services, request("/projects/p/campaigns/c/rewards/new"), params));
    expect(page.treasury).toEqual([{ asset: USDC, balance: 40_500_000n, decimals: 6 }]);
    expect(page.rewardAsset).toBe(USDC);
    expect(page.rewardAssetDecimals).toBe(6);
  });

  it("refuses a 7th decimal in the field, in words, and escrows nothing", async () => {
    const answered = (await create({ distribution: "fcfs", winners: "4", amount: "2.5000001" })) as Refused;
    expect(answered.init?.status).toBe(400);
    expect(answered.data.errors).toEqual({ amount: "Enter the tokens each winner gets: a number, like 10 or 2.5 (at most 6 decimals)" });
    expect(await treasury()).toBe(40_500_000n);
    // A shortfall is told in USDC, not in 18-decimal units.
    const short = (await create({ distribution: "fcfs", winners: "10", amount: "5" })) as Refused;
    expect(short.data.errors).toEqual({
      amount: "The project's treasury holds 40.5 USDC, not the 50 USDC this needs: fund it on the project's Rewards page first.",
    });
  });

  it("escrows winners × amount in USDC units, stores them, and shows them back in 6 decimals", async () => {
    const created = (await create({ distribution: "fcfs", winners: "4", amount: "2.5" })) as Response;
    expect(created.status).toBe(302);
    const [pool] = await db().select().from(rewardPool).where(eq(rewardPool.campaignId, "c"));
    expect(pool).toMatchObject({ kind: "token", asset: USDC, amount: 2_500_000n, winners: 4, escrowed: 10_000_000n });
    expect(await accountBalance({ db: db(), account: poolEscrow(pool!.id), asset: USDC })).toBe(10n * ONE);
    expect(await treasury()).toBe(30_500_000n);
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });

    const edit = await editPage(routeArgs(services, request(`/projects/p/campaigns/c/rewards/${pool!.id}/edit`), { ...params, reward: pool!.id }));
    expect(edit.values).toMatchObject({ kind: "token", asset: USDC, amount: "2.5", winners: "4" });
    expect(edit.decimals).toBe(6);

    // Raised to 3 USDC each: 2 more escrowed.
    const saved = (await answer(() =>
      editReward(
        routeArgs(
          services,
          request(`/projects/p/campaigns/c/rewards/${pool!.id}/edit`, { kind: "token", asset: USDC, distribution: "fcfs", winners: "4", amount: "3" }),
          {
            ...params,
            reward: pool!.id,
          },
        ),
      ),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(await accountBalance({ db: db(), account: poolEscrow(pool!.id), asset: USDC })).toBe(12n * ONE);

    const show = await showCampaign(routeArgs(services, request("/projects/p/campaigns/c"), params));
    expect(show.pools.map((p) => ({ decimals: p.decimals, headline: poolHeadline(p) }))).toEqual([{ decimals: 6, headline: "3 USDC each" }]);
  });
});
