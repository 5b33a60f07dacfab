import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { task } from "#db/schema/quests";
import type { Services } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { listTasks } from "~/routes/api/v1/tasks";
import { apiTestProject, callApi } from "./api-test-kit.server";
import { afterCursor, decodeCursor, encodeCursor, pageOf, pageQuerySchema, sortText } from "./cursor";

let services: Services;
let project: Awaited<ReturnType<typeof apiTestProject>>;
const ROWS = 237;
beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000" });
  project = await apiTestProject(services, "paged");
  // Rows sharing a created_at (ties broken by id) and times with microseconds, which a JavaScript Date cannot hold.
  await services.database.db.execute(sql`
    insert into task (id, project_id, title, type, xp, verification, created_at)
    select 't' || lpad(n::text, 4, '0'), ${project.projectId}, 'Task ' || n, 'visit_link', 10, 'none',
           timestamptz '2026-01-01 00:00:00.000001+00' + ((n / 3) * interval '1.000001 second')
    from generate_series(1, ${ROWS}) as n`);
});
afterAll(() => services.close());

describe("cursor paging", () => {
  it("encodes a (sort, id) pair opaquely and refuses what it did not make", () => {
    const cursor = encodeCursor({ sort: "2026-01-01 00:00:00.000001+00", id: "t0001" });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ sort: "2026-01-01 00:00:00.000001+00", id: "t0001" });
    expect(decodeCursor(encodeCursor({ sort: 5, id: "x" }))).toEqual({ sort: 5, id: "x" });
    for (const bad of ["", "%%", Buffer.from("[1]").toString("base64url"), Buffer.from('{"a":1}').toString("base64url"), "bm90IGpzb24"])
      expect(decodeCursor(bad)).toBeNull();
    expect(pageQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(pageQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ limit: "101" }).success).toBe(false);
  });

  it("walks every row once, in order, page by page (microseconds and ties included)", async () => {
    const db = services.database.db;
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const rows = await db
        .select({ id: task.id, sort: sortText(task.createdAt) })
        .from(task)
        .where(and(eq(task.projectId, project.projectId), afterCursor(task.createdAt, task.id, cursor)))
        .orderBy(asc(task.createdAt), asc(task.id))
        .limit(51);
      const page = pageOf(rows, 50, (row) => ({ sort: row.sort, id: row.id }));
      seen.push(...page.data.map((row) => row.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => `t${String(i + 1).padStart(4, "0")}`));
  });

  it("pages through the API the same way: limit, next_cursor, null on the last page", async () => {
    const key = await project.keyWith(["read"]);
    const ids: string[] = [];
    let path = "/tasks?limit=100";
    let pages = 0;
    for (;;) {
      const answer = await callApi(services, listTasks, { key, path });
      expect(answer.status).toBe(200);
      const body = answer.body as { data: { id: string }[]; next_cursor: string | null };
      ids.push(...body.data.map((row) => row.id));
      pages++;
      if (!body.next_cursor) break;
      path = `/tasks?limit=100&cursor=${body.next_cursor}`;
    }
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(ROWS);
    expect(ids.at(-1)).toBe("t0237");
  });
});
