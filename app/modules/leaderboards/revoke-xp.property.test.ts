// Property test of taking XP back on a real database: random sequences of awards (a few amounts, so
// ties happen; today, 10 days ago or 40 days ago, so each lands on all, some or only the all-time
// windowed boards; with or without a campaign), revokes (of any earlier award, again and again)
// and members hiding from or showing on public boards. Against a model that sums what was not
// taken back per board: every score, every rank equal to the naive count, every histogram equal
// to its board's visible members per score, and each revoke returning the award once, then 0.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { histogramDrift } from "#tests/setup/board-checks";
import { createTestDatabase } from "#tests/setup/test-db";
import { awardXp, naiveRankOf, rankOf, revokeXp, setLeaderboardVisibility, WINDOWS, type BoardWindow } from "./leaderboards.server";

const DAY = 86_400_000;
const MEMBERS = 5;
/** Days before today an award is dated: in every window, in the 30-day one only, in none (the award reads the database's clock). */
const DAYS_AGO = [0, 10, 40];
const WINDOWS_OF: Record<number, BoardWindow[]> = { 0: ["all", "30d", "7d"], 10: ["all", "30d"], 40: ["all"] };

let database: Database;
let run = 0;
const seen = new Map<string, number>();
const saw = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

type Step =
  | { kind: "award"; member: number; amount: number; daysAgo: number; campaign: number | null }
  | { kind: "revoke"; pick: number }
  | { kind: "visibility"; member: number; visible: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("award" as const),
      member: fc.nat({ max: MEMBERS - 1 }),
      amount: fc.constantFrom(10, 20, 30, 50),
      daysAgo: fc.constantFrom(...DAYS_AGO),
      campaign: fc.option(fc.nat({ max: 1 }), { freq: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("revoke" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("visibility" as const), member: fc.nat({ max: MEMBERS - 1 }), visible: fc.boolean() }) },
);

async function check(steps: Step[]) {
  const db = database.db;
  const prefix = `r${String(++run).padStart(3, "0")}x`;
  const members = Array.from({ length: MEMBERS }, (_, i) => `${prefix}m${i}`);
  await db.insert(user).values(members.map((id) => ({ id, email: `${id}@example.com`, name: id })));
  const projectId = `${prefix}p`;
  await db.insert(project).values({ id: projectId, slug: projectId, name: projectId });
  const campaigns = [`${prefix}c0`, `${prefix}c1`];
  const awards: { userId: string; sourceId: string; amount: number; daysAgo: number; campaignId: string | null; revoked: boolean }[] = [];
  const start = Date.now();

  for (const [i, s] of steps.entries()) {
    if (s.kind === "award") {
      const a = {
        userId: members[s.member]!,
        sourceId: `${prefix}s${i}`,
        amount: s.amount,
        daysAgo: s.daysAgo,
        campaignId: s.campaign === null ? null : campaigns[s.campaign]!,
        revoked: false,
      };
      const at = new Date(start - s.daysAgo * DAY + i);
      expect(await awardXp({ db, award: { ...a, projectId, sourceType: "completion", at } })).toBe(true);
      awards.push(a);
      saw(`award ${s.daysAgo} days ago`);
    } else if (s.kind === "revoke") {
      const a = awards[s.pick % Math.max(awards.length, 1)];
      if (!a) continue;
      const taken = await revokeXp({ db, userId: a.userId, sourceType: "completion", sourceId: a.sourceId });
      expect(taken).toBe(a.revoked ? 0 : a.amount);
      saw(a.revoked ? "revoked again" : `revoked ${a.daysAgo} days ago`);
      a.revoked = true;
    } else {
      await setLeaderboardVisibility({ db, userId: members[s.member]!, visible: s.visible });
      saw("visibility");
    }
  }

  const scopes = [`p:${projectId}`, ...campaigns.map((c) => `c:${c}`), "global"];
  for (const userId of members) {
    for (const scope of scopes) {
      for (const w of WINDOWS) {
        const expected = awards
          .filter((a) => a.userId === userId && !a.revoked && WINDOWS_OF[a.daysAgo]!.includes(w))
          .filter((a) => scope === "global" || scope === `p:${projectId}` || scope === `c:${a.campaignId}`)
          .reduce((sum, a) => sum + a.amount, 0);
        const board = `${scope}|${w}`;
        const ours = await rankOf({ db, board, userId });
        expect(ours?.score ?? 0, `${userId} on ${board}`).toBe(expected);
        if (scope !== "global") expect(ours?.rank ?? null, `${userId}'s rank on ${board}`).toBe(await naiveRankOf({ db, board, userId }));
        if (expected > 0 && scope !== "global") saw("scored");
      }
    }
  }
  expect(await histogramDrift(db)).toEqual([]);
}

describe("taking XP back, over any sequence of awards, revokes and visibility changes", () => {
  it("keeps every board's scores, ranks and histogram exact", async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), check), { numRuns: 30 });
    // What the runs covered, so a change in the generators cannot hollow the test out.
    for (const what of [
      "award 0 days ago",
      "award 10 days ago",
      "award 40 days ago",
      "revoked 0 days ago",
      "revoked 10 days ago",
      "revoked 40 days ago",
      "revoked again",
      "visibility",
    ]) {
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
    }
  });
});
