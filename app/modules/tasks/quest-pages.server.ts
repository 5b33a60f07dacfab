import { data } from "react-router";
import type { Db } from "~/lib/db.server";
import { can, roleIn } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { campaignBySlug, crusadeBySlug, listCrusades, progressOf, type CampaignCard } from "./campaigns.server";
import { listTasks } from "./tasks.server";

/**
 * What the campaign and crusade screens load first: the project from its slug (404 when there is
 * none), the viewer's role in it, and the campaign or crusade (404 when there is none, or when it
 * is a draft and the viewer is not on the team).
 */
export async function projectPage({ db, slug, userId }: { db: Db; slug: string; userId: string | null }) {
  const project = await projectBySlug({ db, slug });
  if (!project) throw data("Not found", { status: 404 });
  const role = await roleIn({ db, projectId: project.id, userId });
  return { project, role };
}

export async function campaignPage({ db, projectSlug, campaignSlug, userId }: { db: Db; projectSlug: string; campaignSlug: string; userId: string | null }) {
  const { project, role } = await projectPage({ db, slug: projectSlug, userId });
  const campaign = await campaignBySlug({ db, projectId: project.id, slug: campaignSlug });
  if (!campaign || (!campaign.publishedAt && !can(role, "drafts.view"))) throw data("Not found", { status: 404 });
  return { project, role, campaign };
}

export async function crusadePage({ db, projectSlug, crusadeSlug, userId }: { db: Db; projectSlug: string; crusadeSlug: string; userId: string | null }) {
  const { project, role } = await projectPage({ db, slug: projectSlug, userId });
  const crusade = await crusadeBySlug({ db, projectId: project.id, slug: crusadeSlug });
  if (!crusade || (!crusade.publishedAt && !can(role, "drafts.view"))) throw data("Not found", { status: 404 });
  return { project, role, crusade };
}

/** Campaign cards with the signed-in member's progress in each (none for visitors). */
export async function withProgress({ db, campaigns, userId }: { db: Db; campaigns: CampaignCard[]; userId: string | null }) {
  const progress = userId ? await progressOf({ db, of: "campaign", ids: campaigns.map((c) => c.id), userId }) : null;
  return campaigns.map((c) => ({ ...c, progress: progress ? (progress.get(c.id) ?? { done: 0, total: 0 }) : null }));
}

/** The project's tasks (drafts too) for the crusade form, each with the crusade it is already in. */
export async function pickableTasks({ db, projectId }: { db: Db; projectId: string }) {
  const [tasks, crusades] = await Promise.all([
    listTasks({ db, projectId, withDrafts: true }),
    listCrusades({ db, projectId, withDrafts: true, userId: null }),
  ]);
  const names = new Map(crusades.map((c) => [c.id, c.name]));
  return tasks.map((t) => ({
    id: t.id,
    title: t.title,
    type: t.type,
    xp: t.xp,
    published: t.publishedAt !== null,
    crusade: t.crusadeId ? { id: t.crusadeId, name: names.get(t.crusadeId) ?? "another crusade" } : null,
  }));
}
