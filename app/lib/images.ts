/** The one size and type rule for every image a member uploads (avatar, logo, banner, task proof). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = "image/png,image/jpeg,image/gif,image/webp";
export const IMAGE_TOO_LARGE = "Choose an image of at most 2 MB";

/** "3.4 MB" for the message that names the chosen file's size. */
export function megabytes(bytes: number) {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
