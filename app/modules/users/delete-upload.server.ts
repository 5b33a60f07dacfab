import { unlink } from "node:fs/promises";
import path from "node:path";
import { AVATAR_FILE_PATTERN } from "./avatar.server";

/** Removes a submitted image that was not kept (its attempt failed); a missing file is not an error. */
export async function deleteUpload({ dataDir, url }: { dataDir: string; url: string }) {
  const name = url.startsWith("/uploads/") ? url.slice("/uploads/".length) : null;
  if (!name || !AVATAR_FILE_PATTERN.test(name)) return;
  await unlink(path.join(dataDir, "uploads", name)).catch(() => undefined);
}
