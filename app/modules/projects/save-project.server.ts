import { unlink } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { category } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { invalidFields, ok, type FieldErrors, type FieldFailure, type Ok } from "~/lib/result";
import { AVATAR_FILE_PATTERN, saveImage } from "~/modules/users/avatar.server";
import type { ProjectInput } from "./project.schema";
import { createProject, updateProject, type Project } from "./projects.server";
import { setProjectImages } from "./project-images.server";

export type ProjectImages = { logo: File | null; banner: File | null };
export type SaveProjectResult = Ok<{ project: Project }> | FieldFailure;

const given = (file: File | null) => (file && file.size > 0 ? file : null);

async function removeUpload(dataDir: string, url: string | null | undefined) {
  const name = url?.startsWith("/uploads/") ? url.slice("/uploads/".length) : null;
  if (!name || !AVATAR_FILE_PATTERN.test(name)) return;
  await unlink(path.join(dataDir, "uploads", name)).catch(() => undefined);
}

/**
 * The Create and Edit forms' save: checks the category and the images (type and size), then
 * creates the project (its creator becomes owner) or updates it, and sets the new images. Nothing
 * is kept when something is wrong; a replaced upload is deleted.
 */
export async function saveProject({
  db,
  dataDir,
  userId,
  current,
  input,
  images,
}: {
  db: Db;
  dataDir: string;
  userId: string;
  /** The project being edited; absent when creating one. */
  current?: Project;
  input: ProjectInput;
  images: ProjectImages;
}): Promise<SaveProjectResult> {
  const errors: FieldErrors = {};
  if (input.categoryId !== null) {
    const [found] = await db.select({ id: category.id }).from(category).where(eq(category.id, input.categoryId));
    if (!found) errors.categoryId = "Choose a category from the list";
  }
  const saved: { logoUrl?: string; bannerUrl?: string } = {};
  for (const [field, key] of [
    ["logo", "logoUrl"],
    ["banner", "bannerUrl"],
  ] as const) {
    const file = given(images[field]);
    if (!file || errors.categoryId) continue;
    const result = await saveImage({ dataDir, folder: "uploads", owner: "project", file, field });
    if (result.ok) saved[key] = result.url;
    else Object.assign(errors, result.errors);
  }
  const discard = () => Promise.all([removeUpload(dataDir, saved.logoUrl), removeUpload(dataDir, saved.bannerUrl)]);
  if (Object.keys(errors).length > 0) {
    await discard();
    return invalidFields(errors);
  }

  const result = current ? await updateProject({ db, projectId: current.id, input }) : await createProject({ db, userId, input });
  if (!result.ok) {
    await discard();
    return result;
  }
  await setProjectImages({ db, projectId: result.project.id, ...saved });
  if (saved.logoUrl) await removeUpload(dataDir, current?.logoUrl);
  if (saved.bannerUrl) await removeUpload(dataDir, current?.bannerUrl);
  return ok({ project: { ...result.project, ...saved } });
}
