import { and, asc, count, desc, eq, sum } from "drizzle-orm";
import { z } from "zod";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Db } from "~/lib/db.server";
import { failureMessage, invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { checkAmount } from "~/lib/token-amounts";
import { projectDepositRefOf } from "~/modules/deposits/deposit-refs.server";
import { assetAmount, assetParts, assetSchema, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { balanceOf, balancesOf, InsufficientFunds, memberAvailable, move, projectTreasury } from "~/modules/ledger/ledger.server";
import { authorize, can, type ProjectRole } from "~/modules/projects/permissions.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { poolStateOf } from "./project-pools.server";
import { publicPool } from "./reward-pools.server";

/**
 * The Fund form: an asset the member holds, an amount in that asset's `decimals` (QUEST's 18 unless
 * given; USDC's 6), and the form's request key (a double submit funds once).
 */
export const fundSchemaFor = (decimals = QUEST_DECIMALS) =>
  z.object({
    asset: z.string({ error: "Choose the token to send" }).trim().min(1, "Choose the token to send").pipe(assetSchema),
    amount: z.string({ error: "Enter an amount." }).transform((text, ctx) => {
      const checked = checkAmount(text, decimals);
      if (checked.ok) return checked.units;
      ctx.addIssue({ code: "custom", message: failureMessage(checked) });
      return z.NEVER;
    }),
    requestKey: z.uuid("Reload the page and send the form again."),
  });
export const fundSchema = fundSchemaFor();
export type FundInput = z.infer<typeof fundSchema>;

type Funded = Ok<{ entryId: number }> | FieldFailure;

/**
 * An owner or admin moves tokens from their own available balance to the project's treasury, in
 * one posting keyed by the form's request key. Anyone else gets a 403; a short balance a field
 * message, and nothing moves.
 */
export async function fundProject({
  db,
  projectId,
  actorId,
  input,
  decimals = QUEST_DECIMALS,
}: {
  db: Db;
  projectId: string;
  actorId: string;
  input: FundInput;
  /** The asset's decimals, in which a short balance is told. */
  decimals?: number;
}): Promise<Funded> {
  await authorize({ db, projectId, userId: actorId, action: "treasury.fund" });
  try {
    const posted = await move({
      db,
      key: ledgerKey.projectFunding(projectId, actorId, input.requestKey),
      kind: "project_funding",
      userId: actorId,
      reference: projectId,
      asset: input.asset,
      amount: input.amount,
      from: memberAvailable(actorId),
      to: projectTreasury(projectId),
    });
    return ok({ entryId: posted.entryId });
  } catch (error) {
    if (!(error instanceof InsufficientFunds)) throw error;
    const [held] = await balanceOf({ db, userId: actorId, asset: input.asset });
    const available = held?.available ?? 0n;
    return invalid(
      "amount",
      available === 0n
        ? `You hold no ${assetParts(input.asset).symbol} to send.`
        : `You have ${assetAmount(available, input.asset, decimals)} available: send at most that.`,
    );
  }
}

/**
 * The project's Rewards page: every pool of every campaign with its state and what it escrowed,
 * paid and returned; for owners and admins also the treasury per asset, their own balances to
 * fund it from, and the project's deposit reference.
 */
export async function projectRewards({
  db,
  projectId,
  viewerRole,
  viewerId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  viewerRole: ProjectRole | null;
  viewerId: string | null;
  now?: Date;
}) {
  const rows = await db
    .select({
      pool: rewardPool,
      campaign: { slug: campaign.slug, name: campaign.name, publishedAt: campaign.publishedAt, startsAt: campaign.startsAt, endsAt: campaign.endsAt },
    })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(and(eq(campaign.projectId, projectId)))
    .orderBy(desc(campaign.endsAt), asc(rewardPool.createdAt));
  const totals = await db
    .select({ poolId: rewardGrant.poolId, members: count(), total: sum(rewardGrant.amount) })
    .from(rewardGrant)
    .innerJoin(rewardPool, eq(rewardPool.id, rewardGrant.poolId))
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(eq(campaign.projectId, projectId))
    .groupBy(rewardGrant.poolId);
  const seesDrafts = can(viewerRole, "drafts.view");
  const pools = rows
    .filter((r) => r.campaign.publishedAt || seesDrafts)
    .map(({ pool, campaign: c }) => {
      const paid = totals.find((t) => t.poolId === pool.id);
      const state = poolStateOf(pool.status, campaignStatus(c, now));
      return { ...publicPool(pool), campaign: { slug: c.slug, name: c.name }, state, paidTo: paid?.members ?? 0, paidTotal: BigInt(paid?.total ?? 0) };
    });
  const manages = can(viewerRole, "treasury.fund");
  const treasury = manages
    ? (await balancesOf({ db, holders: [projectTreasury(projectId).holder] })).map((b) => ({ asset: b.asset as Asset, balance: b.balance }))
    : [];
  const own = manages && viewerId ? (await balanceOf({ db, userId: viewerId })).filter((b) => b.available > 0n) : [];
  const depositRef = manages ? await projectDepositRefOf({ db, projectId }) : null;
  return { pools, manages, treasury, own, depositRef };
}
