import { and, asc, desc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { airdrop, airdropAllocation, airdropClaim, airdropRound } from "#db/schema/airdrops";
import { memberExclusion } from "#db/schema/trust";
import { project } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import { type Db, preparedPerDb } from "~/lib/db.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import { assetParts, questAsset } from "~/modules/ledger/assets";
import { balancesOf, projectTreasury } from "~/modules/ledger/ledger.server";
import { rankOf } from "~/modules/leaderboards/leaderboards.server";
import { can, type ProjectRole } from "~/modules/projects/permissions.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { containerPage } from "~/modules/tasks/quest-pages.server";
import { taskBlock } from "~/modules/tasks/task-page.server";
import { listTasks, memberStates } from "~/modules/tasks/tasks.server";
import type { AirdropCardData, AirdropStanding } from "./airdrop-pages";
import { airdropPhase, claimDeadlineOf, type AirdropPhase, type RoundInput } from "./airdrop-phase";
import { airdropBoard } from "./freeze.server";

export type AirdropRow = typeof airdrop.$inferSelect;

/** The chains whose Questline contracts include an AirdropDistributor: an airdrop's token must live on one (saveAirdrop's `distributorChains`). */
export function distributorChains(chains: ChainRegistry): Set<number> {
  return new Set(chains.list.filter((chain) => chain.contracts?.AirdropDistributor).map((chain) => chain.id));
}

/**
 * The tokens an airdrop can pay: Questline's token on each chain with a distributor (the token the
 * distributor pays out), with what the project's treasury holds of each (a published airdrop
 * escrows its total from there).
 */
export async function airdropTokenOptions({ db, projectId, chainIds }: { db: Db; projectId: string; chainIds: ReadonlySet<number> }) {
  const treasury = projectTreasury(projectId);
  const held = new Map((await balancesOf({ db, holders: [treasury.holder] })).filter((b) => b.name === treasury.name).map((b) => [b.asset, b.balance]));
  return [...chainIds]
    .sort((a, b) => a - b)
    .map((chainId) => {
      const asset = questAsset(chainId);
      return { asset, label: `${assetParts(asset).symbol} on ${CHAIN_NAMES[chainId] ?? `chain ${chainId}`}`, treasury: held.get(asset) ?? 0n };
    });
}

export async function airdropBySlug({ db, projectId, slug }: { db: Db; projectId: string; slug: string }) {
  const [row] = await db
    .select({ airdrop, round: { step: airdropRound.step, deadline: airdropRound.deadline } })
    .from(airdrop)
    .leftJoin(airdropRound, eq(airdropRound.airdropId, airdrop.id))
    .where(and(eq(airdrop.projectId, projectId), eq(airdrop.slug, slug)));
  if (!row) return null;
  return { ...row.airdrop, round: row.round?.step ? (row.round as NonNullable<RoundInput>) : null };
}

/**
 * What every airdrop screen loads first: the project, the viewer's role, the airdrop with its
 * round (null before one exists) and its phase now. 404 as for campaigns (a draft is the team's).
 */
export async function airdropPage({
  db,
  projectSlug,
  airdropSlug,
  userId,
  now = new Date(),
}: {
  db: Db;
  projectSlug: string;
  airdropSlug: string;
  userId: string | null;
  now?: Date;
}) {
  const { container, ...page } = await containerPage({ db, projectSlug, userId, find: (projectId) => airdropBySlug({ db, projectId, slug: airdropSlug }) });
  const { round, ...row } = container;
  return { ...page, airdrop: row, round, phase: airdropPhase(row, round, now), claimDeadline: claimDeadlineOf(row, round) };
}

const PHASE_ORDER: Record<AirdropPhase, number> = {
  live: 0,
  claimable: 1,
  upcoming: 2,
  draft: 3,
  ended: 4,
  frozen: 5,
  closed: 6,
  swept: 7,
  failed: 8,
  previous_chain: 9,
};

/** Published tasks of the airdrop, counted beside each row (one index range per airdrop). */
const publishedTasks = sql<number>`(select count(*) from task t where t.airdrop_id = ${airdrop.id} and t.published_at is not null)`.mapWith(Number);

/**
 * Airdrops for an index, as cards: a project's (drafts only with `withDrafts`), running ones first;
 * or, with `live`, every project's running airdrops, ending soonest first, leaving out those where
 * `notJoinedBy` already has points.
 */
export async function listAirdrops({
  db,
  now = new Date(),
  limit = 60,
  ...which
}: { db: Db; now?: Date; limit?: number } & ({ projectId: string; withDrafts?: boolean } | { live: true; notJoinedBy?: string | null })): Promise<
  AirdropCardData[]
> {
  const rows =
    "live" in which
      ? await airdropListStatements.live(db).execute({ now: now.toISOString(), notJoinedBy: which.notJoinedBy ?? null, limit })
      : await airdropListStatements.ofProject(db).execute({ projectId: which.projectId, withDrafts: which.withDrafts ?? false, limit });
  const cards = rows.map((r) => airdropCard(r.airdrop, r.round?.step ? (r.round as NonNullable<RoundInput>) : null, r.project, r.tasks, now));
  return "live" in which ? cards : cards.sort((a, b) => PHASE_ORDER[a.phase] - PHASE_ORDER[b.phase]);
}

/** A project's airdrops, or every project's running ones: each prepared once per connection. */
const airdropListOf = (live: boolean, name: string) =>
  preparedPerDb((db) =>
    db
      .select({
        airdrop,
        round: { step: airdropRound.step, deadline: airdropRound.deadline },
        project: { slug: project.slug, name: project.name, logoUrl: project.logoUrl },
        tasks: publishedTasks,
      })
      .from(airdrop)
      .innerJoin(project, eq(project.id, airdrop.projectId))
      .leftJoin(airdropRound, eq(airdropRound.airdropId, airdrop.id))
      .where(
        live
          ? and(
              isNotNull(airdrop.publishedAt),
              eq(airdrop.status, "open"),
              sql`${airdrop.startsAt} <= ${sql.placeholder("now")}::timestamptz and ${airdrop.endsAt} > ${sql.placeholder("now")}::timestamptz`,
              sql`(${sql.placeholder("notJoinedBy")}::text is null or not exists (select 1 from leaderboard_entry e where e.board = 'a:' || ${airdrop.id} || '|all' and e.user_id = ${sql.placeholder("notJoinedBy")}))`,
            )
          : and(eq(airdrop.projectId, sql.placeholder("projectId")), sql`(${sql.placeholder("withDrafts")}::boolean or ${airdrop.publishedAt} is not null)`),
      )
      .orderBy(live ? asc(airdrop.endsAt) : desc(airdrop.startsAt), asc(airdrop.id))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );
const airdropListStatements = { ofProject: airdropListOf(false, "questline_airdrops_of_project"), live: airdropListOf(true, "questline_live_airdrops") };

export function airdropCard(
  a: AirdropRow,
  round: RoundInput,
  owner: { slug: string; name: string; logoUrl: string | null },
  tasks: number,
  now: Date,
): AirdropCardData {
  return {
    id: a.id,
    slug: a.slug,
    name: a.name,
    description: a.description,
    asset: a.asset,
    total: a.total,
    rule: a.rule,
    ranks: a.rankAmounts?.length ?? null,
    phase: airdropPhase(a, round, now),
    startsAt: a.startsAt,
    endsAt: a.endsAt,
    claimDeadline: claimDeadlineOf(a, round),
    tasks,
    project: owner,
  };
}

/**
 * The member on one airdrop: their points and exact rank on its board, their frozen share (one
 * row by its key, never the allocation) and its claim, and whether they have a wallet linked.
 */
export async function airdropStanding({ db, airdropId, userId }: { db: Db; airdropId: string; userId: string }): Promise<AirdropStanding> {
  const [board, [share], [wallet], [exclusion]] = await Promise.all([
    rankOf({ db, board: airdropBoard(airdropId), userId }),
    db
      .select({ allocation: airdropAllocation, claim: { txHash: airdropClaim.txHash, chainId: airdropClaim.chainId, claimedAt: airdropClaim.claimedAt } })
      .from(airdropAllocation)
      .leftJoin(airdropClaim, and(eq(airdropClaim.airdropId, airdropAllocation.airdropId), eq(airdropClaim.leaf, airdropAllocation.leaf)))
      .where(and(eq(airdropAllocation.airdropId, airdropId), eq(airdropAllocation.userId, userId))),
    db.select({ id: walletAddress.id }).from(walletAddress).where(eq(walletAddress.userId, userId)).limit(1),
    db
      .select({ reason: memberExclusion.reason })
      .from(memberExclusion)
      .innerJoin(airdrop, eq(airdrop.id, airdropId))
      .where(
        and(
          eq(memberExclusion.userId, userId),
          isNull(memberExclusion.liftedAt),
          or(
            and(eq(memberExclusion.scope, "airdrop"), eq(memberExclusion.scopeId, airdropId)),
            and(eq(memberExclusion.scope, "project"), eq(memberExclusion.scopeId, airdrop.projectId)),
          ),
        ),
      )
      .limit(1),
  ]);
  return {
    board: board ? { rank: board.rank, points: board.score } : null,
    share: share
      ? {
          rank: share.allocation.rank,
          points: share.allocation.points,
          amount: share.allocation.amount,
          // Stored lowercase (the freeze leaves checksums to reads like this one).
          account: share.allocation.account ? getAddress(share.allocation.account) : null,
          leaf: share.allocation.leaf,
          claim: share.claim?.txHash ? share.claim : null,
        }
      : null,
    hasWallet: Boolean(wallet),
    excluded: exclusion?.reason ?? null,
  };
}

/**
 * The airdrop page past its first load (`airdropPage`): its tasks (drafts for the team) with the
 * member's standing on each and what stops them now, the member on the airdrop, and once frozen
 * what its tree pays and returns.
 */
export async function airdropShow({
  db,
  airdrop: a,
  role,
  userId,
  socialProviders,
  now = new Date(),
}: {
  db: Db;
  airdrop: AirdropRow;
  role: ProjectRole | null;
  userId: string | null;
  /** The social providers configured on this server (a social task of one that is not says so instead of Start). */
  socialProviders?: SocialConfig["connectable"];
  now?: Date;
}) {
  const tasks = await listTasks({ db, airdropId: a.id, withDrafts: can(role, "drafts.view") });
  const [states, standing] = await Promise.all([memberStates({ db, userId, tasks, now }), userId ? airdropStanding({ db, airdropId: a.id, userId }) : null]);
  const window = campaignStatus(a, now);
  return {
    tasks: await Promise.all(
      tasks.map(async (t) => {
        const state = states.get(t.id) ?? null;
        const block = await taskBlock({ db, task: t, campaignStatus: null, airdropStatus: window, state, userId, socialProviders, now });
        return {
          id: t.id,
          title: t.title,
          type: t.type,
          verification: t.verification,
          xp: t.xp,
          recurrence: t.recurrence,
          published: t.publishedAt !== null,
          state,
          block,
        };
      }),
    ),
    standing,
    frozen:
      a.status === "frozen"
        ? {
            root: a.root,
            leaves: a.leaves ?? 0,
            claimable: a.claimable ?? 0n,
            unclaimable: a.unclaimable ?? 0n,
            frozenAt: a.frozenAt!,
            // Counts by reason only, for every visitor (never who).
            excludedCounts: a.excludedCounts ?? null,
          }
        : null,
  };
}
