export type TeamRole = "owner" | "admin" | "reviewer";

export const ROLE_LABELS: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", reviewer: "Reviewer" };

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: "Owners manage everything, including the team and its roles.",
  admin: "Admins edit the project, its campaigns, crusades and tasks, and invite others.",
  reviewer: "Reviewers review the submissions of the project's campaigns.",
};

/** Of the roles one may grant, the one with the least power (the default of a new invite). */
export function leastPowerful(roles: TeamRole[]): TeamRole {
  return (["reviewer", "admin", "owner"] as const).find((r) => roles.includes(r)) ?? roles[0]!;
}

const DATE = new Intl.DateTimeFormat("en", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** Dates shown the same on the server and in the browser (no hydration mismatch). */
export function formatDate(date: Date | string) {
  return DATE.format(new Date(date));
}
