import { randomUUID } from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { category, project, projectMember } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";
import type { ProjectRole } from "./permissions.server";
import type { ProjectInput } from "./project.schema";
import { isUniqueViolation } from "~/lib/db-errors";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { containsPattern } from "~/lib/search-pattern";

export type Project = typeof project.$inferSelect;

/** A saved project, or the address (slug) refused: another project has it. */
export type SaveResult = Ok<{ project: Project }> | FieldFailure;

const SLUG_TAKEN = invalid("slug", "That address is taken");

/** Creates a project; its creator becomes its first owner. */
export async function createProject({ db, userId, input }: { db: Db; userId: string; input: ProjectInput }): Promise<SaveResult> {
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(project)
        .values({ id: randomUUID(), ...input, createdBy: userId })
        .returning();
      await tx.insert(projectMember).values({ projectId: created!.id, userId, role: "owner" });
      return ok({ project: created! });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return SLUG_TAKEN;
    throw error;
  }
}

export async function updateProject({ db, projectId, input }: { db: Db; projectId: string; input: ProjectInput }): Promise<SaveResult> {
  try {
    const [updated] = await db
      .update(project)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(project.id, projectId))
      .returning();
    return ok({ project: updated! });
  } catch (error) {
    if (isUniqueViolation(error)) return SLUG_TAKEN;
    throw error;
  }
}

export async function projectBySlug({ db, slug }: { db: Db; slug: string }) {
  const [row] = await projectBySlugStatement(db).execute({ slug });
  return row ? withCategory(row) : null;
}

/** A project as its pages take it: with its category (or null) in it. */
export const withCategory = <P, C>(row: { project: P; category: C }) => ({ ...row.project, category: row.category });

/** Read by every project, campaign, crusade and airdrop page: prepared once per connection. */
const projectBySlugStatement = preparedPerDb((db) =>
  db
    .select({ project, category })
    .from(project)
    .leftJoin(category, eq(category.id, project.categoryId))
    .where(eq(project.slug, sql.placeholder("slug")))
    .prepare("questline_project_by_slug"),
);

export const PROJECTS_PAGE_SIZE = 24;

/**
 * Projects for the index: optionally matching a search, in a category, sorted by trending (most
 * completions of their tasks in the last 7 days) or newest first.
 */
export async function listProjects({
  db,
  search,
  categoryId,
  sort = "trending",
  page = 1,
}: {
  db: Db;
  search?: string;
  categoryId?: number | null;
  sort?: "trending" | "new";
  page?: number;
}) {
  const pattern = search ? containsPattern(search) : null;
  const rows = await projectListStatements[sort](db).execute({
    pattern,
    categoryId: categoryId || null,
    limit: PROJECTS_PAGE_SIZE + 1,
    offset: (page - 1) * PROJECTS_PAGE_SIZE,
  });
  return {
    projects: rows.slice(0, PROJECTS_PAGE_SIZE).map((r) => ({ ...r.project, category: r.category, activity: r.activity })),
    hasMore: rows.length > PROJECTS_PAGE_SIZE,
  };
}

/**
 * The projects index and a category's page, one statement per order, prepared once per
 * connection (PostgreSQL planned it on every request, about 0.4 ms). A search or a category left
 * out is a null value.
 */
const projectListOf = (sort: "trending" | "new") =>
  preparedPerDb((db) => {
    const recent = db
      .select({ projectId: task.projectId, n: count(completion.id).as("n") })
      .from(completion)
      .innerJoin(task, eq(task.id, completion.taskId))
      .where(sql`${completion.createdAt} > now() - interval '7 days' and ${completion.status} <> 'rejected'`)
      .groupBy(task.projectId)
      .as("recent");
    const pattern = sql.placeholder("pattern");
    const categoryId = sql.placeholder("categoryId");
    return db
      .select({ project, category, activity: sql<number>`coalesce(${recent.n}, 0)`.mapWith(Number) })
      .from(project)
      .leftJoin(category, eq(category.id, project.categoryId))
      .leftJoin(recent, eq(recent.projectId, project.id))
      .where(
        and(
          sql`(${pattern}::text is null or ${project.name} ilike ${pattern} or ${project.description} ilike ${pattern})`,
          sql`(${categoryId}::int is null or ${project.categoryId} = ${categoryId})`,
        ),
      )
      .orderBy(...(sort === "new" ? [desc(project.createdAt)] : [desc(sql`coalesce(${recent.n}, 0)`), desc(project.createdAt)]))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(`questline_projects_${sort}`);
  });
const projectListStatements = { trending: projectListOf("trending"), new: projectListOf("new") };

export async function listCategories({ db }: { db: Db }) {
  return db.select().from(category).orderBy(category.name);
}

export async function listTeam({ db, projectId }: { db: Db; projectId: string }) {
  return db
    .select({ userId: projectMember.userId, role: projectMember.role, since: projectMember.createdAt, name: user.name, email: user.email, image: user.image })
    .from(projectMember)
    .innerJoin(user, eq(user.id, projectMember.userId))
    .where(eq(projectMember.projectId, projectId))
    .orderBy(projectMember.createdAt);
}

/** Refusals are the whole form's (`invalid` on "form"): the team screen answers them with 400. */
export type TeamChange = Ok | FieldFailure;
const LAST_OWNER = invalid("form", "A project needs an owner: make someone else owner first.");

/**
 * Changes a member's role, or removes them when `role` is null (leaving is removing oneself).
 * The last owner can be neither demoted nor removed. Owners are counted under a lock, so two
 * owners demoting each other at once cannot leave the project without one.
 */
export async function changeTeamRole({
  db,
  projectId,
  userId,
  role,
}: {
  db: Db;
  projectId: string;
  userId: string;
  role: ProjectRole | null;
}): Promise<TeamChange> {
  return db.transaction(async (tx) => {
    const owners = await tx
      .select({ userId: projectMember.userId })
      .from(projectMember)
      .where(and(eq(projectMember.projectId, projectId), eq(projectMember.role, "owner")))
      .for("update");
    const [current] = await tx
      .select({ role: projectMember.role })
      .from(projectMember)
      .where(and(eq(projectMember.projectId, projectId), eq(projectMember.userId, userId)));
    if (!current) return invalid("form", "That member is not on the team.");
    if (current.role === "owner" && role !== "owner" && owners.length <= 1) return LAST_OWNER;
    const where = and(eq(projectMember.projectId, projectId), eq(projectMember.userId, userId));
    if (role === null) await tx.delete(projectMember).where(where);
    else await tx.update(projectMember).set({ role }).where(where);
    return ok();
  });
}
