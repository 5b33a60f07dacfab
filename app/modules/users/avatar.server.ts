import { randomBytes } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

import { IMAGE_MAX_BYTES, IMAGE_TOO_LARGE } from "~/lib/images";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";

/** Image types we accept, recognised by their first bytes rather than by the name the browser sent. */
const SIGNATURES: { ext: string; type: string; test: (b: Uint8Array) => boolean }[] = [
  { ext: "png", type: "image/png", test: (b) => [0x89, 0x50, 0x4e, 0x47].every((v, i) => b[i] === v) },
  { ext: "jpg", type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: "gif", type: "image/gif", test: (b) => String.fromCharCode(...b.slice(0, 4)) === "GIF8" },
  {
    ext: "webp",
    type: "image/webp",
    test: (b) => String.fromCharCode(...b.slice(0, 4)) === "RIFF" && String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
];

export const AVATAR_FILE_PATTERN = /^[a-zA-Z0-9_-]+\.(png|jpg|gif|webp)$/;

/** Uploaded images live in a folder of the data directory each: `avatars`, `uploads` (task submissions). */
export type ImageFolder = "avatars" | "uploads";
const folderPath = (dataDir: string, folder: ImageFolder) => path.join(dataDir, folder);

/** The saved image's URL, or why the file is refused, on the form field it came from. */
export type SaveAvatarResult = Ok<{ url: string }> | FieldFailure;

/** Saves the profile form's `avatar`. */
export function saveAvatar({ dataDir, userId, file }: { dataDir: string; userId: string; file: File }): Promise<SaveAvatarResult> {
  return saveImage({ dataDir, folder: "avatars", owner: userId, file, field: "avatar" });
}

/**
 * Stores an image (checked by its bytes, at most 2 MB) under a fresh name; returns its URL. A
 * refused file is the error of `field`, the form field it came from (`image` unless told).
 */
export async function saveImage({
  dataDir,
  folder,
  owner,
  file,
  field = "image",
}: {
  dataDir: string;
  folder: ImageFolder;
  owner: string;
  file: File;
  field?: string;
}): Promise<SaveAvatarResult> {
  if (file.size === 0) return invalid(field, "That file is empty");
  if (file.size > IMAGE_MAX_BYTES) return invalid(field, IMAGE_TOO_LARGE);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = SIGNATURES.find((s) => s.test(bytes));
  if (!kind) return invalid(field, "Choose a PNG, JPEG, GIF or WebP image");
  const name = `${owner.replace(/[^a-zA-Z0-9_-]/g, "")}-${randomBytes(6).toString("hex")}.${kind.ext}`;
  await mkdir(folderPath(dataDir, folder), { recursive: true });
  await writeFile(path.join(folderPath(dataDir, folder), name), bytes);
  return ok({ url: `/${folder}/${name}` });
}

/** Removes a replaced avatar; a missing file is not an error. */
export async function deleteAvatar({ dataDir, url }: { dataDir: string; url: string | null }) {
  const name = url?.startsWith("/avatars/") ? url.slice("/avatars/".length) : null;
  if (!name || !AVATAR_FILE_PATTERN.test(name)) return;
  await unlink(path.join(folderPath(dataDir, "avatars"), name)).catch(() => undefined);
}

export function readAvatar({ dataDir, name }: { dataDir: string; name: string }) {
  return readImage({ dataDir, folder: "avatars", name });
}

export async function readImage({ dataDir, folder, name }: { dataDir: string; folder: ImageFolder; name: string }) {
  if (!AVATAR_FILE_PATTERN.test(name)) return null;
  const ext = name.split(".").pop()!;
  const type = SIGNATURES.find((s) => s.ext === ext)!.type;
  try {
    return { bytes: await readFile(path.join(folderPath(dataDir, folder), name)), type };
  } catch {
    return null;
  }
}
