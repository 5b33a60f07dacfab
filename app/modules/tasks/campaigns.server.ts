import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { campaign, completion, crusade, task } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { campaignStatus, type CampaignStatus } from "./campaign-status";
import type { CampaignInput, CrusadeInput } from "./quests.schema";
import type { Gate } from "~/modules/trust/trust-types";
import { isUniqueViolation } from "~/lib/db-errors";
import { emitEvent } from "~/modules/events/emit.server";
import { CAMPAIGN_ENTERED } from "~/modules/rewards/promise-words";
import { campaignEntered, takesBack, tightensGate } from "~/modules/rewards/promises.server";

export type Campaign = typeof campaign.$inferSelect;
export type Crusade = typeof crusade.$inferSelect;

/** The campaign and crusade forms answer every refusal with 400, on its field (`form` for a row gone meanwhile). */
type Saved<T> = Ok<{ value: T }> | FieldFailure;
const SLUG_TAKEN = invalid("slug", "This project already uses that address");

/**
 * Creates or edits a project's campaign (the caller has checked `quests.manage`). A campaign a
 * member has entered cannot be unpublished nor moved to start in the future: its members' entries
 * and its rewards stay (promises.server.ts).
 */
export async function saveCampaign({
  db,
  projectId,
  campaignId,
  input,
  gate,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  campaignId?: string;
  input: CampaignInput;
  /** Who may take part (parsed and checked by the gate form); null: anyone; left out: unchanged. */
  gate?: Gate | null;
  now?: Date;
}): Promise<Saved<Campaign>> {
  const { published, ...rest } = input;
  const fields = gate === undefined ? rest : { ...rest, gate };
  try {
    if (!campaignId) {
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(campaign)
          .values({ id: randomUUID(), projectId, ...fields, publishedAt: published ? now : null })
          .returning();
        await emitPublished(tx, row!);
        return row!;
      });
      return ok({ value: created });
    }
    const [current] = await db
      .select()
      .from(campaign)
      .where(and(eq(campaign.id, campaignId), eq(campaign.projectId, projectId)));
    if (!current) return invalid("form", "This campaign does not exist.");
    const takeBack = takesBack(current, input, now);
    const gateTightened = tightensGate(current.gate, gate);
    if ((takeBack || gateTightened) && (await campaignEntered(db, campaignId))) {
      if (takeBack) return invalid(takeBack === "unpublish" ? "published" : "startsAt", CAMPAIGN_ENTERED[takeBack]);
      return invalid("gate.combine", CAMPAIGN_ENTERED.gate);
    }
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaign)
        .set({ ...fields, publishedAt: published ? (current.publishedAt ?? now) : null, updatedAt: now })
        .where(eq(campaign.id, campaignId))
        .returning();
      await emitPublished(tx, row!);
      return row!;
    });
    return ok({ value: updated });
  } catch (error) {
    if (isUniqueViolation(error)) return SLUG_TAKEN;
    throw error;
  }
}

/** `campaign.published` the first time a campaign is published (its key: unpublishing and publishing again records nothing). */
async function emitPublished(tx: Db, row: Campaign) {
  if (!row.publishedAt) return;
  await emitEvent(tx, {
    type: "campaign.published",
    key: `campaign.published:${row.id}`,
    projectId: row.projectId,
    data: { campaignId: row.id, title: row.name.slice(0, 300), startsAt: row.startsAt.toISOString() },
  });
}

export async function campaignBySlug({ db, projectId, slug }: { db: Db; projectId: string; slug: string }) {
  const [row] = await campaignBySlugStatement(db).execute({ projectId, slug });
  return row ?? null;
}

/** Read by every campaign page: prepared once per connection. */
const campaignBySlugStatement = preparedPerDb((db) =>
  db
    .select()
    .from(campaign)
    .where(and(eq(campaign.projectId, sql.placeholder("projectId")), eq(campaign.slug, sql.placeholder("slug"))))
    .prepare("questline_campaign_by_slug"),
);

export type CampaignCard = Campaign & { status: CampaignStatus; project: { slug: string; name: string; logoUrl: string | null }; tasks: number };

/**
 * Campaigns for an index: a project's (drafts only when `withDrafts`), or every published one,
 * optionally only those with a given status. Live first, then scheduled, then ended.
 */
export async function listCampaigns({
  db,
  projectId,
  withDrafts = false,
  status,
  now = new Date(),
  limit = 60,
}: {
  db: Db;
  projectId?: string;
  withDrafts?: boolean;
  status?: CampaignStatus;
  now?: Date;
  limit?: number;
}): Promise<CampaignCard[]> {
  const statement = projectId ? campaignListStatements.ofProject : campaignListStatements.all;
  const rows = await statement(db).execute({ projectId, withDrafts, limit: limit * 2 });
  const order: Record<CampaignStatus, number> = { live: 0, scheduled: 1, draft: 2, ended: 3 };
  return rows
    .map((r) => ({ ...r.campaign, status: campaignStatus(r.campaign, now), project: r.project, tasks: r.tasks }))
    .filter((c) => !status || c.status === status)
    .sort((a, b) => order[a.status] - order[b.status])
    .slice(0, limit);
}

/** Every project's campaigns, or one project's: read by the campaign indexes and the dashboard, prepared once per connection. */
const campaignListOf = (ofProject: boolean, name: string) =>
  preparedPerDb((db) =>
    db
      .select({ campaign, project: { slug: project.slug, name: project.name, logoUrl: project.logoUrl }, tasks: count(task.id) })
      .from(campaign)
      .innerJoin(project, eq(project.id, campaign.projectId))
      // Published tasks only, as members see them (and as campaignProgress counts them).
      .leftJoin(task, and(eq(task.campaignId, campaign.id), isNotNull(task.publishedAt)))
      .where(
        and(
          ofProject ? eq(campaign.projectId, sql.placeholder("projectId")) : undefined,
          sql`(${sql.placeholder("withDrafts")}::boolean or ${campaign.publishedAt} is not null)`,
        ),
      )
      .groupBy(campaign.id, project.id)
      .orderBy(desc(campaign.startsAt))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );
const campaignListStatements = { all: campaignListOf(false, "questline_campaigns"), ofProject: campaignListOf(true, "questline_campaigns_of_project") };

/** How far a member is in a campaign: approved tasks out of its published tasks. */
export async function campaignProgress({ db, campaignId, userId }: { db: Db; campaignId: string; userId: string | null }) {
  const progress = await progressOf({ db, of: "campaign", ids: [campaignId], userId });
  return progress.get(campaignId) ?? { done: 0, total: 0 };
}

/**
 * Each campaign's (published tasks) or crusade's (its steps) task count and how many of them the
 * member has approved, for many at once: one query.
 */
export async function progressOf({ db, of, ids, userId }: { db: Db; of: "campaign" | "crusade"; ids: string[]; userId: string | null }) {
  const progress = new Map<string, { done: number; total: number }>();
  if (ids.length === 0) return progress;
  const rows = await progressStatements[of](db).execute({ ids, userId });
  for (const row of rows) if (row.id) progress.set(row.id, { done: row.done, total: row.total });
  return progress;
}

/**
 * The progress in campaigns (published tasks) or crusades, prepared once per connection. A visitor's
 * null member matches no completion.
 */
const progressIn = (of: "campaign" | "crusade") =>
  preparedPerDb((db) => {
    const owner = of === "campaign" ? task.campaignId : task.crusadeId;
    return db
      .select({
        id: owner,
        total: sql<number>`count(distinct ${task.id})`.mapWith(Number),
        done: sql<number>`count(distinct ${completion.taskId})`.mapWith(Number),
      })
      .from(task)
      .leftJoin(completion, and(eq(completion.taskId, task.id), eq(completion.status, "approved"), eq(completion.userId, sql.placeholder("userId"))))
      .where(and(sql`${owner} = any(${sql.placeholder("ids")}::text[])`, of === "campaign" ? isNotNull(task.publishedAt) : undefined))
      .groupBy(owner)
      .prepare(`questline_progress_in_${of}`);
  });
const progressStatements = { campaign: progressIn("campaign"), crusade: progressIn("crusade") };

/** Saves a crusade and puts its tasks in the given order (tasks must belong to the project). */
export async function saveCrusade({
  db,
  projectId,
  crusadeId,
  input,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  crusadeId?: string;
  input: CrusadeInput;
  now?: Date;
}): Promise<Saved<Crusade>> {
  const { published, taskIds, ...fields } = input;
  try {
    return await db.transaction(async (tx) => {
      if (taskIds.length > 0) {
        const owned = await tx
          .select({ id: task.id, title: task.title, airdropId: task.airdropId })
          .from(task)
          .where(and(eq(task.projectId, projectId), inArray(task.id, taskIds)));
        if (owned.length !== new Set(taskIds).size) return invalid("taskIds", "Choose tasks of this project, each once.");
        // A task belongs to one container: an airdrop's task earns that airdrop's points, not a crusade's steps.
        const inAirdrop = owned.find((t) => t.airdropId);
        if (inAirdrop) return invalid("taskIds", `“${inAirdrop.title}” is an airdrop's task: a task belongs to one crusade or one airdrop.`);
      }
      let saved: Crusade;
      if (!crusadeId) {
        [saved] = (await tx
          .insert(crusade)
          .values({ id: randomUUID(), projectId, ...fields, publishedAt: published ? now : null })
          .returning()) as [Crusade];
      } else {
        const [current] = await tx
          .select()
          .from(crusade)
          .where(and(eq(crusade.id, crusadeId), eq(crusade.projectId, projectId)));
        if (!current) return invalid("form", "This crusade does not exist.");
        [saved] = (await tx
          .update(crusade)
          .set({ ...fields, publishedAt: published ? (current.publishedAt ?? now) : null, updatedAt: now })
          .where(eq(crusade.id, crusadeId))
          .returning()) as [Crusade];
      }
      await tx.update(task).set({ crusadeId: null, crusadePosition: null }).where(eq(task.crusadeId, saved.id));
      for (const [i, id] of taskIds.entries()) {
        await tx
          .update(task)
          .set({ crusadeId: saved.id, crusadePosition: i + 1 })
          .where(eq(task.id, id));
      }
      return ok({ value: saved });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return SLUG_TAKEN;
    throw error;
  }
}

export async function crusadeBySlug({ db, projectId, slug }: { db: Db; projectId: string; slug: string }) {
  const [row] = await db
    .select()
    .from(crusade)
    .where(and(eq(crusade.projectId, projectId), eq(crusade.slug, slug)));
  return row ?? null;
}

/** A crusade's tasks in order, each with the member's state: done, available (next) or locked. */
export async function crusadeSteps({ db, crusadeId, userId }: { db: Db; crusadeId: string; userId: string | null }) {
  const steps = await db.select().from(task).where(eq(task.crusadeId, crusadeId)).orderBy(asc(task.crusadePosition));
  const approved = new Set(
    userId && steps.length
      ? (
          await db
            .select({ taskId: completion.taskId })
            .from(completion)
            .where(
              and(
                eq(completion.userId, userId),
                eq(completion.status, "approved"),
                inArray(
                  completion.taskId,
                  steps.map((s) => s.id),
                ),
              ),
            )
        ).map((r) => r.taskId)
      : [],
  );
  let unlocked = true;
  return steps.map((step) => {
    const state = approved.has(step.id) ? "done" : unlocked ? "available" : "locked";
    if (!approved.has(step.id)) unlocked = false;
    return { task: step, state } as const;
  });
}

export async function listCrusades({ db, projectId, withDrafts = false, userId }: { db: Db; projectId?: string; withDrafts?: boolean; userId: string | null }) {
  const rows = await db
    .select({ crusade, project: { slug: project.slug, name: project.name } })
    .from(crusade)
    .innerJoin(project, eq(project.id, crusade.projectId))
    .where(and(projectId ? eq(crusade.projectId, projectId) : undefined, withDrafts ? undefined : isNotNull(crusade.publishedAt)))
    .orderBy(desc(crusade.createdAt))
    .limit(60);
  const progress = await progressOf({ db, of: "crusade", ids: rows.map((r) => r.crusade.id), userId });
  return rows.map((r) => ({ ...r.crusade, project: r.project, ...(progress.get(r.crusade.id) ?? { done: 0, total: 0 }) }));
}
