import { can, type ProjectRole } from "~/modules/projects/permissions.server";

/**
 * Where the task form's "Try it" and the project's signing secret are asked, for a team member who
 * may use them (`api.manage`: owners and admins); null for the others, who see neither.
 */
export function apiCheckTools({ slug, role, taskId }: { slug: string; role: ProjectRole | null; taskId: string | null }) {
  if (!can(role, "api.manage")) return null;
  const base = `/projects/${encodeURIComponent(slug)}/api-check`;
  return { tryAction: `${base}/try`, secretAction: `${base}/secret`, taskId };
}
