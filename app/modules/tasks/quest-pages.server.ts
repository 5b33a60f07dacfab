import { and, eq, sql } from "drizzle-orm";
import { data } from "react-router";
import { category, project, projectMember } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { authorize, can, roleIn, type ProjectRole } from "~/modules/projects/permissions.server";
import { projectBySlug, withCategory } from "~/modules/projects/projects.server";
import { crusadeBySlug, listCrusades, progressOf, type CampaignCard } from "./campaigns.server";
import { listTasks } from "./tasks.server";

/**
 * What the campaign, crusade and airdrop screens load first: the project from its slug (404 when
 * there is none) and the viewer's role in it.
 */
export async function projectPage({ db, slug, userId }: { db: Db; slug: string; userId: string | null }) {
  const project = await projectBySlug({ db, slug });
  if (!project) throw data("Not found", { status: 404 });
  const role = await roleIn({ db, projectId: project.id, userId });
  return { project, role };
}

/** The project whose campaigns, crusades or airdrops the member creates: 404 without it, 403 unless they may manage its quests. */
export async function managedProjectPage({ db, slug, userId }: { db: Db; slug: string; userId: string }) {
  const page = await projectPage({ db, slug, userId });
  await authorize({ db, projectId: page.project.id, userId, action: "quests.manage" });
  return page;
}

/**
 * A project's container of tasks (a campaign, a crusade, an airdrop) found by `find` in the
 * project of `projectSlug`: 404 when there is none, or when it is a draft and the viewer is not
 * on the team.
 */
export async function containerPage<T extends { publishedAt: Date | null }>({
  db,
  projectSlug,
  userId,
  find,
}: {
  db: Db;
  projectSlug: string;
  userId: string | null;
  find: (projectId: string) => Promise<T | null>;
}) {
  const { project, role } = await projectPage({ db, slug: projectSlug, userId });
  return { project, role, container: shownTo(role, await find(project.id)) };
}

/** A container the viewer may see: 404 when there is none, or when it is a draft and they are not on the team. */
function shownTo<T extends { publishedAt: Date | null }>(role: ProjectRole | null, container: T | null): T {
  if (!container || (!container.publishedAt && !can(role, "drafts.view"))) throw data("Not found", { status: 404 });
  return container;
}

/** A campaign's page, as containerPage reads one, with the project, the viewer's role and the campaign in one statement. */
export async function campaignPage({ db, projectSlug, campaignSlug, userId }: { db: Db; projectSlug: string; campaignSlug: string; userId: string | null }) {
  const [row] = await campaignPageStatement(db).execute({ projectSlug, campaignSlug, userId });
  if (!row) throw data("Not found", { status: 404 });
  return { project: withCategory(row), role: row.role, campaign: shownTo(row.role, row.campaign) };
}

/** Read by every campaign page: prepared once per connection. A visitor's null member is on no team. */
const campaignPageStatement = preparedPerDb((db) =>
  db
    .select({ project, category, role: projectMember.role, campaign })
    .from(project)
    .leftJoin(category, eq(category.id, project.categoryId))
    .leftJoin(projectMember, and(eq(projectMember.projectId, project.id), eq(projectMember.userId, sql.placeholder("userId"))))
    .leftJoin(campaign, and(eq(campaign.projectId, project.id), eq(campaign.slug, sql.placeholder("campaignSlug"))))
    .where(eq(project.slug, sql.placeholder("projectSlug")))
    .prepare("questline_campaign_page"),
);

export async function crusadePage({ db, projectSlug, crusadeSlug, userId }: { db: Db; projectSlug: string; crusadeSlug: string; userId: string | null }) {
  const { container: crusade, ...page } = await containerPage({
    db,
    projectSlug,
    userId,
    find: (projectId) => crusadeBySlug({ db, projectId, slug: crusadeSlug }),
  });
  return { ...page, crusade };
}

/** Campaign cards with the signed-in member's progress in each (none for visitors). */
export async function withProgress({ db, campaigns, userId }: { db: Db; campaigns: CampaignCard[]; userId: string | null }) {
  const progress = userId ? await progressOf({ db, of: "campaign", ids: campaigns.map((c) => c.id), userId }) : null;
  return campaigns.map((c) => ({ ...c, progress: progress ? (progress.get(c.id) ?? { done: 0, total: 0 }) : null }));
}

/** The project's tasks (drafts too, not an airdrop's) for the crusade form, each with the crusade it is already in. */
export async function pickableTasks({ db, projectId }: { db: Db; projectId: string }) {
  const [tasks, crusades] = await Promise.all([
    listTasks({ db, projectId, withDrafts: true }),
    listCrusades({ db, projectId, withDrafts: true, userId: null }),
  ]);
  const names = new Map(crusades.map((c) => [c.id, c.name]));
  // An airdrop's tasks are not offered: a task belongs to one crusade or one airdrop.
  return tasks
    .filter((t) => !t.airdropId)
    .map((t) => ({
      id: t.id,
      title: t.title,
      type: t.type,
      xp: t.xp,
      published: t.publishedAt !== null,
      crusade: t.crusadeId ? { id: t.crusadeId, name: names.get(t.crusadeId) ?? "another crusade" } : null,
    }));
}
