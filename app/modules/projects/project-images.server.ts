import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";

/** Sets a project's logo and/or banner (URLs of images saved with `saveImage`). */
export async function setProjectImages({ db, projectId, logoUrl, bannerUrl }: { db: Db; projectId: string; logoUrl?: string; bannerUrl?: string }) {
  if (logoUrl === undefined && bannerUrl === undefined) return;
  await db
    .update(project)
    .set({ ...(logoUrl !== undefined && { logoUrl }), ...(bannerUrl !== undefined && { bannerUrl }), updatedAt: new Date() })
    .where(eq(project.id, projectId));
}
