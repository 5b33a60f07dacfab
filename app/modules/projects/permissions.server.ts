import { and, eq, sql } from "drizzle-orm";
import { data } from "react-router";
import { projectMember } from "#db/schema/projects";
import { type Db, preparedPerDb } from "~/lib/db.server";

/** Who may do what in a project: the one place this is decided. */
export const ROLES = ["owner", "admin", "reviewer"] as const;
export type ProjectRole = (typeof ROLES)[number];

export const PERMISSIONS = {
  "project.edit": ["owner", "admin"],
  "project.delete": ["owner"],
  "team.view": ["owner", "admin", "reviewer"],
  "team.invite": ["owner", "admin"],
  "team.manage": ["owner"],
  "quests.manage": ["owner", "admin"],
  "rewards.manage": ["owner", "admin"],
  "rewards.token": ["owner", "admin"],
  "treasury.fund": ["owner", "admin"],
  "drafts.view": ["owner", "admin", "reviewer"],
  "submissions.review": ["owner", "admin", "reviewer"],
  /** See participants' trust scores, their reasons and clusters; decide appeals. */
  "trust.view": ["owner", "admin", "reviewer"],
  /** Exclude members or clusters from the project, a pool or an airdrop, and lift exclusions. */
  "trust.act": ["owner", "admin"],
  /** Create and revoke the project's API keys, and read or rotate the secret its server checks our requests with (api_check tasks). */
  "api.manage": ["owner", "admin"],
  /** Add, change and remove webhook endpoints, rotate their secrets, read their delivery logs and redeliver. */
  "webhooks.manage": ["owner", "admin"],
  /** A project's Discord and Telegram bots, and the roles it grants. */
  "community.manage": ["owner", "admin"],
} as const satisfies Record<string, readonly ProjectRole[]>;

export type ProjectAction = keyof typeof PERMISSIONS;

export function can(role: ProjectRole | null | undefined, action: ProjectAction): boolean {
  return role != null && (PERMISSIONS[action] as readonly ProjectRole[]).includes(role);
}

/** Only owners may grant or take away the owner role; admins may invite admins and reviewers. */
export function canGrant(role: ProjectRole | null | undefined, granted: ProjectRole): boolean {
  if (!can(role, "team.invite")) return false;
  return granted === "owner" ? role === "owner" : true;
}

export async function roleIn({ db, projectId, userId }: { db: Db; projectId: string; userId: string | null | undefined }) {
  if (!userId) return null;
  const [row] = await roleStatement(db).execute({ projectId, userId });
  return row?.role ?? null;
}

/** Read on every page of a project a member opens: prepared once per connection. */
const roleStatement = preparedPerDb((db) =>
  db
    .select({ role: projectMember.role })
    .from(projectMember)
    .where(and(eq(projectMember.projectId, sql.placeholder("projectId")), eq(projectMember.userId, sql.placeholder("userId"))))
    .prepare("questline_role_in"),
);

/** The member's role when it allows `action`; otherwise a 403 response is thrown. */
export async function authorize({
  db,
  projectId,
  userId,
  action,
}: {
  db: Db;
  projectId: string;
  userId: string | null | undefined;
  action: ProjectAction;
}): Promise<ProjectRole> {
  const role = await roleIn({ db, projectId, userId });
  if (!role || !can(role, action)) throw data("You are not allowed to do that in this project.", { status: 403 });
  return role;
}
