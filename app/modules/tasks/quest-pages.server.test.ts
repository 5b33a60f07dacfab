import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { category, project, projectMember } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { campaignBySlug } from "./campaigns.server";
import { campaignPage, containerPage } from "./quest-pages.server";

let database: Database;
const day = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.insert(user).values([
    { id: "owner", email: "owner@example.com", name: "Owner" },
    { id: "reviewer", email: "reviewer@example.com", name: "Reviewer" },
    { id: "member", email: "member@example.com", name: "Member" },
  ]);
  const [defi] = await db.insert(category).values({ slug: "defi", name: "DeFi" }).returning();
  await db.insert(project).values([
    { id: "p", slug: "p", name: "P", categoryId: defi!.id },
    { id: "q", slug: "q", name: "Q" },
  ]);
  await db.insert(projectMember).values([
    { projectId: "p", userId: "owner", role: "owner" },
    { projectId: "p", userId: "reviewer", role: "reviewer" },
    { projectId: "q", userId: "member", role: "admin" },
  ]);
  const dates = { startsAt: new Date(Date.now() - day), endsAt: new Date(Date.now() + day) };
  await db.insert(campaign).values([
    { id: "live", projectId: "p", slug: "live", name: "Live", publishedAt: new Date(), ...dates },
    { id: "draft", projectId: "p", slug: "draft", name: "Draft", publishedAt: null, ...dates },
    { id: "elsewhere", projectId: "q", slug: "elsewhere", name: "Elsewhere", publishedAt: new Date(), ...dates },
  ]);
});
afterAll(() => database.close());

const page = (projectSlug: string, campaignSlug: string, userId: string | null) => campaignPage({ db: database.db, projectSlug, campaignSlug, userId });
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (thrown: { init?: { status?: number } }) => thrown.init?.status,
  );

describe("a campaign's page", () => {
  it("gives anyone a published campaign with its project and category; a role only to the team", async () => {
    const seen = await page("p", "live", null);
    expect(seen.project).toMatchObject({ id: "p", name: "P", category: { slug: "defi", name: "DeFi" } });
    expect(seen.campaign).toMatchObject({ id: "live", name: "Live" });
    expect(seen.role).toBeNull();
    expect((await page("p", "live", "owner")).role).toBe("owner");
    // A member on another project's team has no role here.
    expect((await page("p", "live", "member")).role).toBeNull();
    expect((await page("q", "elsewhere", null)).project.category).toBeNull();
  });

  it("shows a draft to the team only", async () => {
    expect((await page("p", "draft", "owner")).campaign.id).toBe("draft");
    expect((await page("p", "draft", "reviewer")).campaign.id).toBe("draft");
    expect(await statusOf(page("p", "draft", "member"))).toBe(404);
    expect(await statusOf(page("p", "draft", null))).toBe(404);
  });

  it("is not found without the project, without the campaign, or with another project's campaign", async () => {
    expect(await statusOf(page("nope", "live", null))).toBe(404);
    expect(await statusOf(page("p", "nope", "owner"))).toBe(404);
    expect(await statusOf(page("p", "elsewhere", "member"))).toBe(404);
  });

  it("reads what the crusade and airdrop pages read, in one statement", async () => {
    for (const userId of [null, "owner", "reviewer"]) {
      const generic = await containerPage({
        db: database.db,
        projectSlug: "p",
        userId,
        find: (projectId) => campaignBySlug({ db: database.db, projectId, slug: "live" }),
      });
      const { campaign: found, ...rest } = await page("p", "live", userId);
      expect({ ...rest, container: found }).toEqual(generic);
    }
  });
});
