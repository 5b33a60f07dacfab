import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { exclusionAppeal, memberExclusion } from "#db/schema/trust";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { excludeMembers } from "~/modules/trust/exclusions.server";
import type { Services } from "~/services/services.server";
import { action as reviewAction, loader as reviewLoader } from "../projects/review";
import { action, loader } from "./trust";

let services: Services;
const cookies: Record<string, string> = {};
let exclusionId: string;

/** ann took part in project p and was excluded from it by its owner; bob took part too; rev reviews p. */
beforeAll(async () => {
  services = await createTestServices();
  for (const id of ["own", "rev", "ann", "bob"]) cookies[id] = (await signedInMember(services, id)).cookie;
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "Pixel" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
  await db
    .insert(task)
    .values({ id: "t", projectId: "p", title: "Visit", type: "visit_link", verification: "none", xp: 10, config: { url: "https://example.com" } });
  await db.insert(completion).values(["ann", "bob"].map((userId) => ({ id: randomUUID(), taskId: "t", userId, period: "once", status: "approved" as const })));
  const excluded = await excludeMembers({
    db,
    projectId: "p",
    actorId: "own",
    target: { scope: "project", scopeId: "p" },
    userIds: ["ann"],
    reason: "Funded with 40 others",
  });
  expect(excluded.ok).toBe(true);
  exclusionId = (await db.select().from(memberExclusion))[0]!.id;
});
afterAll(() => services?.close());

const get = (path: string, who: string) => new Request(`${services.env.APP_URL}${path}`, { headers: { cookie: cookies[who]! } });
const post = (path: string, who: string, body: Record<string, string>) =>
  new Request(`${services.env.APP_URL}${path}`, {
    method: "POST",
    headers: { cookie: cookies[who]!, origin: services.env.APP_URL, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });

describe("Settings › Trust and the review queue's appeals", () => {
  it("shows a member their own exclusions only, with no score before one is computed", async () => {
    const ann = await loader(routeArgs(services, get("/settings/trust", "ann")));
    expect(ann.trust).toBeNull();
    expect(ann.exclusions).toMatchObject([{ id: exclusionId, reason: "Funded with 40 others", project: { name: "Pixel" }, appealBlocked: null }]);
    expect((await loader(routeArgs(services, get("/settings/trust", "bob")))).exclusions).toEqual([]);
  });

  it("takes the member's appeal, refuses another member's, and lets a reviewer of the project answer it", async () => {
    const bobs = (await answer(() => action(routeArgs(services, post("/settings/trust", "bob", { exclusionId, message: "Not mine but let me try" }))))) as {
      data: { errors: Record<string, string> };
      init: { status: number };
    };
    expect(bobs.init.status).toBe(404);
    const short = (await action(routeArgs(services, post("/settings/trust", "ann", { exclusionId, message: "short" })))) as never as {
      init: { status: number };
    };
    expect(short.init.status).toBe(400);
    const sent = (await action(
      routeArgs(services, post("/settings/trust", "ann", { exclusionId, message: "These wallets are all mine, bought over years" })),
    )) as Response;
    expect(sent.status).toBe(302);

    const queue = await reviewLoader(routeArgs(services, get("/projects/p/review", "rev"), { project: "p" }));
    expect(queue.appeals).toMatchObject([
      { name: "ann", message: "These wallets are all mine, bought over years", exclusion: { reason: "Funded with 40 others" } },
    ]);
    const appealId = queue.appeals![0]!.id;
    const outsider = await answer(() =>
      reviewAction(routeArgs(services, post("/projects/p/review", "bob", { appealId, decision: "uphold", answer: "Sure" }), { project: "p" })),
    );
    expect((outsider as { init: { status: number } }).init.status).toBe(403);
    await reviewAction(
      routeArgs(services, post("/projects/p/review", "rev", { appealId, decision: "deny", answer: "The funder is a farm's" }), { project: "p" }),
    );
    const [appeal] = await services.database.db.select().from(exclusionAppeal).where(eq(exclusionAppeal.id, appealId));
    expect(appeal).toMatchObject({ status: "denied", decidedBy: "rev", answer: "The funder is a farm's" });
    const ann = await loader(routeArgs(services, get("/settings/trust", "ann")));
    expect(ann.exclusions[0]).toMatchObject({ appeal: { status: "denied", answer: "The funder is a farm's" }, appealBlocked: expect.stringMatching(/Denied/) });
  });
});
