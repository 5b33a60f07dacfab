import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { category } from "#db/schema/projects";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { answerInvite, createInvite, INVITE_TTL_MS, invitesFor, inviteByToken, resendInvite, revokeInvite } from "./invites.server";
import { authorize, roleIn } from "./permissions.server";
import { projectSchema } from "./project.schema";
import { changeTeamRole, createProject, listProjects, listTeam, projectBySlug, updateProject } from "./projects.server";

let database: Database;
const WALLET = "0x1111111111111111111111111111111111111111";

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(["owner", "admin", "reviewer", "guest", "other"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "guest", address: "0x1111111111111111111111111111111111111111", chainId: 56 });
  await database.db.insert(category).values([
    { slug: "defi", name: "DeFi" },
    { slug: "gaming", name: "Gaming" },
  ]);
});
afterAll(() => database.close());

const input = (overrides: Record<string, string> = {}) =>
  projectSchema.parse({
    name: "Acme Protocol",
    slug: "acme",
    description: "Swaps",
    categoryId: "1",
    website: "",
    xUrl: "",
    discordUrl: "",
    telegramUrl: "",
    ...overrides,
  });

describe("projects", () => {
  it("are created with their creator as owner, under a unique address", async () => {
    const created = await createProject({ db: database.db, userId: "owner", input: input() });
    expect(created.ok).toBe(true);
    const projectId = created.ok ? created.project.id : "";
    expect(await roleIn({ db: database.db, projectId, userId: "owner" })).toBe("owner");
    expect(await createProject({ db: database.db, userId: "other", input: input({ name: "Other" }) })).toEqual({
      ok: false,
      code: "invalid",
      errors: { slug: "That address is taken" },
    });
    const found = await projectBySlug({ db: database.db, slug: "acme" });
    expect(found?.category?.name).toBe("DeFi");
    expect((await updateProject({ db: database.db, projectId, input: input({ name: "Acme 2" }) })).ok).toBe(true);
  });

  it("validate their form", () => {
    const bad = projectSchema.safeParse({
      name: "A",
      slug: "Not A Slug",
      categoryId: "",
      website: "http://x.y",
      xUrl: "https://evil.com/a",
      discordUrl: "",
      telegramUrl: "",
    });
    const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toMatchObject({
      name: "A project name has at least 2 characters",
      slug: "Use lowercase letters, digits and single hyphens",
      website: "Enter a full https:// link",
      xUrl: "Enter a link to x.com",
    });
  });

  it("are listed by search and category", async () => {
    await createProject({
      db: database.db,
      userId: "other",
      input: input({ name: "Pixel Quest", slug: "pixel-quest", categoryId: "2", description: "A game" }),
    });
    expect((await listProjects({ db: database.db, search: "pixel" })).projects.map((p) => p.slug)).toEqual(["pixel-quest"]);
    expect((await listProjects({ db: database.db, categoryId: 1 })).projects.map((p) => p.slug)).toEqual(["acme"]);
    expect((await listProjects({ db: database.db, sort: "new" })).projects.map((p) => p.slug)).toEqual(["pixel-quest", "acme"]);
    expect((await listProjects({ db: database.db, search: "%" })).projects).toEqual([]);
  });
});

describe("teams and invites", () => {
  let projectId = "";
  beforeAll(async () => {
    projectId = (await projectBySlug({ db: database.db, slug: "acme" }))!.id;
  });

  it("invite by e-mail: the invited member accepts and joins with the role", async () => {
    const { invite, token } = await createInvite({
      db: database.db,
      projectId,
      invitedBy: "owner",
      role: "admin",
      email: "admin@example.com",
      walletAddress: null,
    });
    expect((await inviteByToken({ db: database.db, token }))?.invite.id).toBe(invite.id);
    expect(await invitesFor({ db: database.db, userId: "admin" })).toHaveLength(1);
    expect(await invitesFor({ db: database.db, userId: "other" })).toHaveLength(0);
    expect(await answerInvite({ db: database.db, inviteId: invite.id, userId: "other", accept: true })).toMatchObject({ ok: false });
    expect(await answerInvite({ db: database.db, inviteId: invite.id, userId: "admin", accept: true })).toEqual({ ok: true, projectSlug: "acme" });
    expect(await roleIn({ db: database.db, projectId, userId: "admin" })).toBe("admin");
    expect(await answerInvite({ db: database.db, inviteId: invite.id, userId: "admin", accept: true })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This invitation is accepted." },
    });
  });

  it("invite by wallet address, accepted by the member who linked that wallet", async () => {
    const { invite } = await createInvite({
      db: database.db,
      projectId,
      invitedBy: "admin",
      role: "reviewer",
      email: null,
      walletAddress: WALLET.toUpperCase().replace("0X", "0x"),
    });
    expect((await invitesFor({ db: database.db, userId: "guest" })).map((i) => i.invite.id)).toEqual([invite.id]);
    expect((await answerInvite({ db: database.db, inviteId: invite.id, userId: "guest", accept: true })).ok).toBe(true);
    expect(await roleIn({ db: database.db, projectId, userId: "guest" })).toBe("reviewer");
  });

  it("expire after 7 days, can be declined, revoked and resent", async () => {
    const t0 = new Date();
    const { invite } = await createInvite({
      db: database.db,
      projectId,
      invitedBy: "owner",
      role: "reviewer",
      email: "reviewer@example.com",
      walletAddress: null,
      now: t0,
    });
    const later = new Date(t0.getTime() + INVITE_TTL_MS + 1000);
    expect(await invitesFor({ db: database.db, userId: "reviewer", now: later })).toHaveLength(0);
    expect(await answerInvite({ db: database.db, inviteId: invite.id, userId: "reviewer", accept: true, now: later })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This invitation is expired." },
    });
    const resent = await resendInvite({ db: database.db, projectId, inviteId: invite.id, now: later });
    expect(resent?.invite.expiresAt.getTime()).toBe(later.getTime() + INVITE_TTL_MS);
    expect((await answerInvite({ db: database.db, inviteId: invite.id, userId: "reviewer", accept: false, now: later })).ok).toBe(true);
    expect(await roleIn({ db: database.db, projectId, userId: "reviewer" })).toBeNull();

    const second = await createInvite({ db: database.db, projectId, invitedBy: "owner", role: "reviewer", email: "reviewer@example.com", walletAddress: null });
    expect(await revokeInvite({ db: database.db, projectId, inviteId: second.invite.id })).toBe(true);
    expect(await answerInvite({ db: database.db, inviteId: second.invite.id, userId: "reviewer", accept: true })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This invitation is revoked." },
    });
  });

  it("never lose their last owner", async () => {
    expect(await changeTeamRole({ db: database.db, projectId, userId: "owner", role: "admin" })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "A project needs an owner: make someone else owner first." },
    });
    expect(await changeTeamRole({ db: database.db, projectId, userId: "owner", role: null })).toMatchObject({ ok: false });
    expect(await changeTeamRole({ db: database.db, projectId, userId: "admin", role: "owner" })).toEqual({ ok: true });
    // Two owners demoting each other at once: one of them stays owner.
    const both = await Promise.all([
      changeTeamRole({ db: database.db, projectId, userId: "owner", role: "admin" }),
      changeTeamRole({ db: database.db, projectId, userId: "admin", role: "admin" }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect((await listTeam({ db: database.db, projectId })).filter((m) => m.role === "owner")).toHaveLength(1);
  });

  it("answer 403 to a member without the right", async () => {
    await expect(authorize({ db: database.db, projectId, userId: "guest", action: "quests.manage" })).rejects.toMatchObject({ init: { status: 403 } });
    await expect(authorize({ db: database.db, projectId, userId: null, action: "team.view" })).rejects.toMatchObject({ init: { status: 403 } });
    expect(await authorize({ db: database.db, projectId, userId: "guest", action: "submissions.review" })).toBe("reviewer");
  });
});
