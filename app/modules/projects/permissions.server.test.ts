import { describe, expect, it } from "vitest";
import { can, canGrant, PERMISSIONS, ROLES, type ProjectAction } from "./permissions.server";

/** Every role × every action, written out so a change to the rules shows up here. */
const EXPECTED: Record<ProjectAction, Record<(typeof ROLES)[number] | "none", boolean>> = {
  "project.edit": { owner: true, admin: true, reviewer: false, none: false },
  "project.delete": { owner: true, admin: false, reviewer: false, none: false },
  "team.view": { owner: true, admin: true, reviewer: true, none: false },
  "team.invite": { owner: true, admin: true, reviewer: false, none: false },
  "team.manage": { owner: true, admin: false, reviewer: false, none: false },
  "quests.manage": { owner: true, admin: true, reviewer: false, none: false },
  "rewards.manage": { owner: true, admin: true, reviewer: false, none: false },
  "rewards.token": { owner: true, admin: true, reviewer: false, none: false },
  "treasury.fund": { owner: true, admin: true, reviewer: false, none: false },
  "drafts.view": { owner: true, admin: true, reviewer: true, none: false },
  "submissions.review": { owner: true, admin: true, reviewer: true, none: false },
  "trust.view": { owner: true, admin: true, reviewer: true, none: false },
  "trust.act": { owner: true, admin: true, reviewer: false, none: false },
  "api.manage": { owner: true, admin: true, reviewer: false, none: false },
  "webhooks.manage": { owner: true, admin: true, reviewer: false, none: false },
  "community.manage": { owner: true, admin: true, reviewer: false, none: false },
};

describe("project permissions", () => {
  it("cover every action", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(PERMISSIONS).sort());
  });

  for (const [action, byRole] of Object.entries(EXPECTED) as [ProjectAction, (typeof EXPECTED)[ProjectAction]][]) {
    for (const role of [...ROLES, "none"] as const) {
      it(`${role} ${byRole[role] ? "may" : "may not"} ${action}`, () => {
        expect(can(role === "none" ? null : role, action)).toBe(byRole[role]);
      });
    }
  }

  it("let only owners grant the owner role", () => {
    expect(canGrant("owner", "owner")).toBe(true);
    expect(canGrant("admin", "owner")).toBe(false);
    expect(canGrant("admin", "reviewer")).toBe(true);
    expect(canGrant("admin", "admin")).toBe(true);
    expect(canGrant("reviewer", "reviewer")).toBe(false);
    expect(canGrant(null, "reviewer")).toBe(false);
  });
});
