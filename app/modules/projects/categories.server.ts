import { count, eq } from "drizzle-orm";
import type { z } from "zod";
import { category, project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { slugify, type categorySchema } from "./project.schema";
import { isUniqueViolation } from "~/lib/db-errors";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";

export type Category = typeof category.$inferSelect;
export type CategoryInput = z.output<typeof categorySchema>;
/** A saved category, or the name (or, for a category gone meanwhile, the whole form) refused. */
export type CategoryResult = Ok<{ category: Category }> | FieldFailure;

export async function categoryBySlug({ db, slug }: { db: Db; slug: string }) {
  const [row] = await db.select().from(category).where(eq(category.slug, slug));
  return row ?? null;
}

/** Every category with how many projects it holds, by name. */
export async function listCategoriesWithCounts({ db }: { db: Db }) {
  return db
    .select({ category, projects: count(project.id) })
    .from(category)
    .leftJoin(project, eq(project.categoryId, category.id))
    .groupBy(category.id)
    .orderBy(category.name)
    .then((rows) => rows.map((r) => ({ ...r.category, projects: r.projects })));
}

/** Creates a category; its address (slug) comes from the name and must be unique. */
export async function createCategory({ db, input }: { db: Db; input: CategoryInput }): Promise<CategoryResult> {
  const slug = slugify(input.name);
  if (slug.length < 2) return invalid("name", "Use at least 2 letters or digits in the name");
  try {
    const [created] = await db.insert(category).values({ slug, name: input.name, description: input.description }).returning();
    return ok({ category: created! });
  } catch (error) {
    if (isUniqueViolation(error)) return invalid("name", "A category with this address already exists");
    throw error;
  }
}

/** Renames a category; its address stays the same, so links to it keep working. */
export async function renameCategory({ db, id, input }: { db: Db; id: number; input: CategoryInput }): Promise<CategoryResult> {
  const [updated] = await db.update(category).set({ name: input.name, description: input.description }).where(eq(category.id, id)).returning();
  // Gone meanwhile: the whole form's error, answered 400 as the rename's other refusals.
  return updated ? ok({ category: updated }) : invalid("form", "This category no longer exists.");
}

/** Deletes a category; its projects stay, without a category. */
export async function deleteCategory({ db, id }: { db: Db; id: number }) {
  const [deleted] = await db.delete(category).where(eq(category.id, id)).returning({ id: category.id });
  return Boolean(deleted);
}
