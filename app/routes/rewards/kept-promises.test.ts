import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { questAsset } from "~/modules/ledger/assets";
import { credit } from "~/modules/ledger/ledger.server";
import { CAMPAIGN_ENTERED, KEPT_NOTE } from "~/modules/rewards/promise-words";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";
import { fundProject } from "~/modules/rewards/treasury.server";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action as editCampaign, loader as campaignForm } from "../campaigns/edit";
import { loader as campaignShow } from "../campaigns/show";
import { action as editReward, loader as rewardForm } from "./edit";

/** The screens where an owner would take back an entered campaign's promise: they say why, and the actions refuse in words. */
const Q = questAsset(31337);
const DAY = 86_400_000;
let services: Services;
let cookie: string;
const db = () => services.database.db;
const params = { project: "p", campaign: "season", reward: "" };

beforeAll(async () => {
  services = await createTestServices();
  ({ cookie } = await signedInMember(services, "own"));
  await signedInMember(services, "m");
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  // Published, but not started: its token pool is not held by the live rule, only by the entry below.
  await db()
    .insert(campaign)
    .values({
      id: "c",
      projectId: "p",
      slug: "season",
      name: "Season",
      startsAt: new Date(Date.now() + DAY),
      endsAt: new Date(Date.now() + 5 * DAY),
      publishedAt: new Date(),
    });
  await db()
    .insert(task)
    .values({
      id: "t",
      projectId: "p",
      campaignId: "c",
      publishedAt: new Date(),
      title: "Visit",
      type: "visit_link",
      verification: "none",
      xp: 10,
      config: { url: "https://example.com" },
    });
  await credit({ db: db(), key: "gift", kind: "credit", userId: "own", asset: Q, amount: 10n ** 18n });
  await fundProject({ db: db(), projectId: "p", actorId: "own", input: { asset: Q, amount: 10n ** 18n, requestKey: "fund" } });
  const input = { kind: "token" as const, asset: Q, distribution: "everyone" as const, winners: null, amount: 10n ** 18n, rankAmounts: null };
  const created = await createRewardPool({ db: db(), campaignId: "c", actorId: "own", input });
  if (!created.ok) throw new Error("the pool was not created");
  params.reward = created.value.id;
});
afterAll(() => services.close());

const get = (path: string) => new Request(`http://localhost:3000${path}`, { headers: { cookie } });
const post = (path: string, fields: Record<string, string>) =>
  new Request(`http://localhost:3000${path}`, { method: "POST", headers: { cookie }, body: new URLSearchParams(fields) });
type Refusal = { data: { errors: Record<string, string> }; init: { status: number } };

describe("an entered campaign's screens", () => {
  it("say nothing before a member enters", async () => {
    expect(await campaignShow(routeArgs(services, get("/projects/p/campaigns/season"), params))).toMatchObject({ poolsKept: null });
    expect(await campaignForm(routeArgs(services, get("/projects/p/campaigns/season/edit"), params))).toMatchObject({ keptNote: null });
    expect(await rewardForm(routeArgs(services, get(`/projects/p/campaigns/season/rewards/${params.reward}/edit`), params))).toMatchObject({ kept: null });
  });

  it("say why once one has, and the forms' refusals are in the field", async () => {
    await db().insert(completion).values({ id: "done", taskId: "t", userId: "m", period: "once", status: "pending" });
    expect(await campaignShow(routeArgs(services, get("/projects/p/campaigns/season"), params))).toMatchObject({ poolsKept: KEPT_NOTE.enteredPools });
    expect(await campaignForm(routeArgs(services, get("/projects/p/campaigns/season/edit"), params))).toMatchObject({ keptNote: KEPT_NOTE.campaign });
    expect(await rewardForm(routeArgs(services, get(`/projects/p/campaigns/season/rewards/${params.reward}/edit`), params))).toMatchObject({
      kept: KEPT_NOTE.enteredPools,
    });

    const deleted = (await answer(() =>
      editReward(routeArgs(services, post(`/projects/p/campaigns/season/rewards/${params.reward}/edit`, { intent: "delete" }), params)),
    )) as Refusal;
    expect(deleted.init.status).toBe(400);
    expect(deleted.data.errors).toEqual({ form: CAMPAIGN_ENTERED.delete });

    const lowered = (await answer(() =>
      editReward(
        routeArgs(
          services,
          post(`/projects/p/campaigns/season/rewards/${params.reward}/edit`, { kind: "token", asset: Q, distribution: "everyone", total: "0.5" }),
          params,
        ),
      ),
    )) as Refusal;
    expect(lowered.data.errors).toEqual({ total: CAMPAIGN_ENTERED.lower });

    const form = {
      name: "Season",
      slug: "season",
      description: "",
      startsAt: new Date(Date.now() + DAY).toISOString(),
      endsAt: new Date(Date.now() + 5 * DAY).toISOString(),
    };
    const unpublished = (await answer(() => editCampaign(routeArgs(services, post("/projects/p/campaigns/season/edit", form), params)))) as Refusal;
    expect(unpublished.init.status).toBe(400);
    expect(unpublished.data.errors).toEqual({ published: CAMPAIGN_ENTERED.unpublish });

    const [pool] = await db().select().from(rewardPool);
    expect(pool).toMatchObject({ id: params.reward, amount: 10n ** 18n, escrowed: 10n ** 18n });
  });
});
