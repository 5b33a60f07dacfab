export type TeamRole = "owner" | "admin" | "reviewer";

export const ROLE_LABELS: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", reviewer: "Reviewer" };

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: "Owners manage everything, including the team and its roles.",
  admin: "Admins edit the project, its campaigns, crusades and tasks, and invite others.",
  reviewer: "Reviewers review the submissions of the project's campaigns.",
};

/** Dates shown the same on the server and in the browser (no hydration mismatch). */
export function formatDate(date: Date | string) {
  return new Date(date).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}
