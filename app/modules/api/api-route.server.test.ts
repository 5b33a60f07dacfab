import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey } from "#db/schema/reach";
import { airdrop } from "#db/schema/airdrops";
import { campaign, crusade, task } from "#db/schema/quests";
import type { Services } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { getCampaign } from "~/routes/api/v1/campaign";
import { listCampaigns } from "~/routes/api/v1/campaigns";
import { getProject } from "~/routes/api/v1/project";
import { listTasks } from "~/routes/api/v1/tasks";
import "~/routes/api/v1/endpoints";
import { revokeApiKey } from "./api-keys.server";
import { apiOperations } from "./api-route.server";
import { API_SCOPES } from "./api-scopes";
import { apiTestProject, callApi } from "./api-test-kit.server";

let services: Services;
let mine: Awaited<ReturnType<typeof apiTestProject>>;
let theirs: Awaited<ReturnType<typeof apiTestProject>>;
beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "3" });
  mine = await apiTestProject(services, "mine");
  theirs = await apiTestProject(services, "theirs");
});
afterAll(() => services.close());

/** A fresh minute per call: most tests are not about the limit. */
let minute = Date.UTC(2026, 0, 1);
const freshMinute = () => new Date((minute += 120_000));

describe("the /api/v1 pipeline", () => {
  it("refuses a request without a key, with a malformed, unknown or revoked one: 401 with WWW-Authenticate, in the error shape", async () => {
    const none = await callApi(services, getProject, { now: freshMinute() });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    expect(none.body).toEqual({ error: { code: "unauthorized", message: expect.stringContaining("Authorization: Bearer") } });

    const unknown = await callApi(services, getProject, { key: `ql_${"A".repeat(43)}`, now: freshMinute() });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await callApi(services, getProject, { key: "not-a-key", now: freshMinute() })).status).toBe(401);

    const key = await mine.keyWith(["read"]);
    expect((await callApi(services, getProject, { key, now: freshMinute() })).status).toBe(200);
    const [row] = await services.database.db
      .select({ id: apiKey.id })
      .from(apiKey)
      .where(eq(apiKey.prefix, key.slice(0, 11)));
    const revoked = await revokeApiKey({ db: services.database.db, projectId: mine.projectId, keyId: row!.id, revokedBy: mine.ownerId });
    expect(revoked.ok).toBe(true);
    expect((await callApi(services, getProject, { key, now: freshMinute() })).status).toBe(401);
  });

  it("never honours a session cookie: a signed-in browser without a key is refused", async () => {
    const answer = await callApi(services, getProject, { headers: { cookie: "better-auth.session_token=anything" }, now: freshMinute() });
    expect(answer.status).toBe(401);
  });

  it("refuses every registered operation to a key without its scope (403 naming it), for every scope", async () => {
    expect(apiOperations.length).toBeGreaterThanOrEqual(6);
    for (const operation of apiOperations) {
      const key = await mine.keyWith(API_SCOPES.filter((scope) => scope !== operation.scope));
      const path = operation.path.replace(/\{[^}]+\}/g, "x");
      const params = Object.fromEntries([...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name!, "x"]));
      const answer = await callApi(services, operation, { key, path, params, now: freshMinute(), body: operation.method === "get" ? undefined : {} });
      expect(answer.status, `${operation.method} ${operation.path}`).toBe(403);
      expect(answer.body).toEqual({ error: { code: "forbidden", message: `This key lacks the \`${operation.scope}\` scope this operation needs.` } });
    }
  });

  it("counts requests per key: RateLimit-* headers on every answer, 429 with Retry-After past the limit, a new window after a minute", async () => {
    const key = await mine.keyWith(["read"]);
    const start = new Date(Date.UTC(2026, 5, 1, 12, 0, 0));
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const first = await callApi(services, getProject, { key, now: at(0) });
    expect([first.headers.get("ratelimit-limit"), first.headers.get("ratelimit-remaining"), first.headers.get("ratelimit-reset")]).toEqual(["3", "2", "60"]);
    expect((await callApi(services, getProject, { key, now: at(10) })).headers.get("ratelimit-remaining")).toBe("1");
    const refusedScope = await callApi(services, listCampaigns, { key: await mine.keyWith(["xp:write"]), now: at(10) });
    expect(refusedScope.headers.get("ratelimit-remaining")).toBe("2");
    expect((await callApi(services, getProject, { key, now: at(20) })).headers.get("ratelimit-remaining")).toBe("0");
    const limited = await callApi(services, getProject, { key, now: at(45) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("15");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBe("15");
    expect(limited.body).toMatchObject({ error: { code: "limited" } });
    const again = await callApi(services, getProject, { key, now: at(61) });
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("answers only the key's own project, and a param of another project's as not found", async () => {
    const db = services.database.db;
    const dates = { startsAt: new Date("2026-01-01T00:00:00Z"), endsAt: new Date("2027-01-01T00:00:00Z") };
    await db.insert(campaign).values([
      { id: "c-mine", projectId: mine.projectId, slug: "mine", name: "Mine", ...dates },
      { id: "c-theirs", projectId: theirs.projectId, slug: "theirs", name: "Theirs", ...dates, publishedAt: new Date("2026-01-01T00:00:00Z") },
    ]);
    const key = await mine.keyWith(["read"]);
    const project = await callApi(services, getProject, { key, now: freshMinute() });
    expect(project.body).toMatchObject({ id: mine.projectId, slug: "mine" });
    const list = await callApi(services, listCampaigns, { key, now: freshMinute() });
    expect(list.body).toEqual({ data: [expect.objectContaining({ id: "c-mine", status: "draft", published_at: null })], next_cursor: null });
    const other = await callApi(services, getCampaign, { key, path: "/campaigns/c-theirs", params: { id: "c-theirs" }, now: freshMinute() });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: "not_found", message: "This project has no campaign with this id." } });
  });

  it("never lists another project's campaigns, crusades, tasks or airdrops, drafts or published", async () => {
    const db = services.database.db;
    const dates = { startsAt: new Date("2026-01-01T00:00:00Z"), endsAt: new Date("2027-01-01T00:00:00Z") };
    for (const [who, project] of [
      ["mine", mine],
      ["theirs", theirs],
    ] as const) {
      await db.insert(crusade).values({ id: `cr-${who}`, projectId: project.projectId, slug: `cr-${who}`, name: "Crusade", publishedAt: dates.startsAt });
      await db
        .insert(task)
        .values({ id: `t-${who}`, projectId: project.projectId, campaignId: `c-${who}`, title: "Task", type: "visit_link", xp: 10, verification: "none" });
      await db.insert(airdrop).values({
        id: `a-${who}`,
        projectId: project.projectId,
        slug: `a-${who}`,
        name: "Airdrop",
        asset: "QUEST:31337",
        rule: "pro_rata",
        total: 10n ** 18n,
        claimDeadline: new Date("2027-02-01T00:00:00Z"),
        publishedAt: dates.startsAt,
        ...dates,
      });
    }
    const key = await mine.keyWith(["read"]);
    const lists = apiOperations.filter((operation) => operation.method === "get" && !operation.path.includes("{") && operation.path !== "/project");
    expect(lists.map((operation) => operation.path)).toEqual(expect.arrayContaining(["/campaigns", "/crusades", "/tasks", "/airdrops"]));
    for (const operation of lists) {
      const answer = await callApi(services, operation, { key, now: freshMinute() });
      expect(answer.status, operation.path).toBe(200);
      expect(JSON.stringify(answer.body), operation.path).not.toMatch(/-theirs|theirs-owner/);
    }
    for (const path of ["/campaigns", "/crusades", "/tasks", "/airdrops"]) {
      const answer = await callApi(
        services,
        apiOperations.find((operation) => operation.path === path)!,
        { key, now: freshMinute() },
      );
      expect(
        (answer.body as { data: { id: string }[] }).data.map((row) => row.id),
        path,
      ).toEqual([expect.stringMatching(/-mine$/)]);
    }
    const theirTasks = await callApi(services, listTasks, { key, path: "/tasks?campaign_id=c-theirs", now: freshMinute() });
    expect(theirTasks.body).toEqual({ data: [], next_cursor: null });
    const byCampaign = await callApi(services, listTasks, { key, path: "/tasks?campaign_id=c-mine", now: freshMinute() });
    expect((byCampaign.body as { data: { id: string }[] }).data.map((row) => row.id)).toEqual(["t-mine"]);
  });

  it("refuses a bad query with field errors", async () => {
    const key = await mine.keyWith(["read"]);
    const answer = await callApi(services, listCampaigns, { key, path: "/campaigns?limit=101&cursor=%%%", now: freshMinute() });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: "invalid", fields: { limit: "limit must be a whole number from 1 to 100", cursor: "cursor is not one this API gave" } },
    });
  });
});
