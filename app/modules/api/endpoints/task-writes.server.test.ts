import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { projectMember } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import type { Services } from "~/services/services.server";
import { createApiKey } from "~/modules/api/api-keys.server";
import { apiTestProject, callApi } from "~/modules/api/api-test-kit.server";
import { createTestServices } from "#tests/setup/test-services";
import { createTask, updateTask } from "~/modules/api/endpoints/task-writes.server";
import { listTasks } from "~/modules/api/endpoints/tasks.server";

let services: Services;
let mine: Awaited<ReturnType<typeof apiTestProject>>;
let theirs: Awaited<ReturnType<typeof apiTestProject>>;
let writer: string;
let reader: string;

const now = new Date("2026-06-01T12:00:00Z");
const visitLink = { title: "Read our docs", type: "visit_link", xp: 20, config: { url: "https://example.com/docs" }, published: true };

beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000" });
  mine = await apiTestProject(services, "mine");
  theirs = await apiTestProject(services, "theirs");
  writer = await mine.keyWith(["tasks:write"]);
  reader = await mine.keyWith(["read"]);
});
afterAll(() => services.close());

const create = (body: unknown, idempotencyKey: string, key = writer) =>
  callApi(services, createTask, { key, body, headers: { "Idempotency-Key": idempotencyKey }, now });
const update = (id: string, body: unknown, key = writer) => callApi(services, updateTask, { key, path: `/tasks/${id}`, params: { id }, body, now });
const tasksOf = (projectId: string) => services.database.db.select().from(task).where(eq(task.projectId, projectId));

describe("POST /api/v1/tasks", () => {
  it("creates the task through the form's save (201, the GET /tasks shape), and GET /tasks lists it", async () => {
    const created = await create({ ...visitLink, description: "  Ten minutes.  " }, "create-1");
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      title: "Read our docs",
      description: "Ten minutes.",
      type: "visit_link",
      xp: 20,
      verification: "none",
      recurrence: "once",
      campaign_id: null,
      crusade_id: null,
      crusade_position: null,
      airdrop_id: null,
      starts_at: null,
      ends_at: null,
      cap: null,
      slots_taken: 0,
      published_at: now.toISOString(),
      created_at: now.toISOString(),
    });
    const listed = await callApi(services, listTasks, { key: reader, now });
    expect((listed.body as { data: unknown[] }).data).toEqual([created.body]);
    const [row] = await services.database.db
      .select({ config: task.config })
      .from(task)
      .where(eq(task.id, (created.body as { id: string }).id));
    expect(row!.config).toEqual({ url: "https://example.com/docs" });
  });

  it("creates one task for the same Idempotency-Key sent twice, answering the first answer again", async () => {
    const before = (await tasksOf(mine.projectId)).length;
    const body = { ...visitLink, title: "Once only" };
    const [first, second] = await Promise.all([create(body, "twice"), create(body, "twice")]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect((await tasksOf(mine.projectId)).length).toBe(before + 1);
  });

  it("refuses a config the type's schema refuses, and the form's own rules, with field errors in the one error shape (nothing saved)", async () => {
    const before = (await tasksOf(mine.projectId)).length;
    const badConfig = await create({ ...visitLink, config: { url: "not a link" } }, "bad-config");
    expect(badConfig.status).toBe(400);
    expect(badConfig.body).toEqual({
      error: {
        code: "invalid",
        message: "Enter the link to visit: http:// or https://",
        fields: { "config.url": "Enter the link to visit: http:// or https://" },
      },
    });
    const badRules = await create(
      { ...visitLink, title: "x", verification: "auto", starts_at: "2026-07-02T00:00:00Z", ends_at: "2026-07-01T00:00:00Z", campaign_id: "nope" },
      "bad-rules",
    );
    expect(badRules.status).toBe(400);
    expect((badRules.body as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      title: "A title has at least 3 characters",
      verification: expect.stringContaining("verified: none"),
      ends_at: "The end comes after the start",
    });
    // saveTask's own refusal (a campaign that is not the project's), on the API's field name.
    const otherCampaign = await create({ ...visitLink, campaign_id: "nope" }, "bad-campaign");
    expect(otherCampaign.body).toMatchObject({ error: { code: "invalid", fields: { campaign_id: "Choose one of this project's campaigns" } } });
    // The form's reading of an event's declaration: the member's argument must be an indexed address of it.
    const event = await create(
      {
        title: "Swap on our pool",
        type: "event_emitted",
        xp: 30,
        config: {
          chainId: 31337,
          contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
          event: "Swap(address indexed sender, uint256 amount)",
          memberArg: "amount",
        },
      },
      "bad-event",
    );
    expect(event.status).toBe(400);
    expect((event.body as { error: { fields: Record<string, string> } }).error.fields).toMatchObject({
      "config.memberArg": "amount is not an indexed address argument of Swap: choose sender",
    });
    const unknownField = await create({ ...visitLink, crusade_id: "cr" }, "unknown-field");
    expect(unknownField.status).toBe(400);
    expect((await tasksOf(mine.projectId)).length).toBe(before);
  });

  it("refuses an api_check task whose URL is a private address, on config.url", async () => {
    const answer = await create(
      { title: "Trade on our app", type: "api_check", xp: 50, config: { url: "http://10.1.2.3/check", instructions: "Trade once" } },
      "private-url",
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid", fields: { "config.url": expect.any(String) } } });
    expect((await tasksOf(mine.projectId)).some((t) => t.type === "api_check")).toBe(false);
  });

  it("refuses a read key (403) and a key whose creator has left the team (403, in words)", async () => {
    const read = await create(visitLink, "read-key", reader);
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ error: { code: "forbidden" } });

    const db = services.database.db;
    await db.insert(user).values({ id: "leaver", email: "leaver@example.com", name: "Leaver", emailVerified: true });
    await db.insert(projectMember).values({ projectId: mine.projectId, userId: "leaver", role: "admin" });
    const { key } = await createApiKey({ db, projectId: mine.projectId, name: "leaver's", scopes: ["tasks:write"], createdBy: "leaver" });
    expect((await create({ ...visitLink, title: "While on the team" }, "leaver-1", key)).status).toBe(201);
    await db.delete(projectMember).where(and(eq(projectMember.projectId, mine.projectId), eq(projectMember.userId, "leaver")));
    const left = await create({ ...visitLink, title: "After leaving" }, "leaver-2", key);
    expect(left.status).toBe(403);
    expect(left.body).toEqual({ error: { code: "forbidden", message: expect.stringContaining("no longer manages this project's tasks") } });
    const [mineTask] = await tasksOf(mine.projectId);
    expect((await update(mineTask!.id, { title: "Changed by a leaver" }, key)).status).toBe(403);
  });
});

describe("PATCH /api/v1/tasks/{id}", () => {
  it("changes the fields given and keeps the others, with saveTask's rules (XP fixed once completions are in)", async () => {
    const created = await create({ ...visitLink, title: "To change", cap: 10 }, "to-change");
    const id = (created.body as { id: string }).id;
    const changed = await update(id, { title: "Changed", published: false, ends_at: "2026-09-01T00:00:00Z" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, title: "Changed", xp: 20, cap: 10, published_at: null, ends_at: "2026-09-01T00:00:00.000Z" });

    await services.database.db.insert(user).values({ id: "m1", email: "m1@example.com", name: "M1" });
    await services.database.db.insert(completion).values({ id: "k1", taskId: id, userId: "m1", period: "once", status: "approved" });
    const xp = await update(id, { xp: 500 });
    expect(xp.status).toBe(400);
    expect(xp.body).toMatchObject({ error: { code: "invalid", fields: { xp: "Members have completed or submitted this task: its XP cannot change" } } });
    const retyped = await update(id, { type: "quiz" });
    expect(retyped.body).toMatchObject({ error: { code: "invalid", fields: { config: expect.stringContaining("needs its own config") } } });
  });

  it("answers 404 for another project's task, and changes nothing there", async () => {
    const [theirTask] = await services.database.db
      .insert(task)
      .values({
        id: "t-theirs",
        projectId: theirs.projectId,
        title: "Theirs",
        type: "visit_link",
        xp: 5,
        verification: "none",
        config: { url: "https://example.com" },
      })
      .returning();
    const answer = await update(theirTask!.id, { title: "Taken over" });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: "not_found", message: "This project has no task with this id." } });
    expect((await tasksOf(theirs.projectId))[0]!.title).toBe("Theirs");
  });
});
