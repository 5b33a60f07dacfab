import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, airdropEscrow, checkLedger, credit, projectTreasury } from "~/modules/ledger/ledger.server";
import { addBoardPoints, boardKey } from "~/modules/leaderboards/leaderboards.server";
import { AIRDROP_ENTERED } from "~/modules/rewards/promise-words";
import { fundProject } from "~/modules/rewards/treasury.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { airdropSchema } from "./airdrop.schema";
import { saveAirdrop } from "./airdrops.server";

const Q = questAsset(31337);
const FUNDS = 1_000n;
const T = new Date("2026-11-20T12:00:00Z");
const iso = (days: number) => new Date(T.getTime() + days * 86_400_000).toISOString();
let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "m"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await credit({ db: db(), key: "gift", kind: "credit", userId: "own", asset: Q, amount: FUNDS * 10n ** 18n });
  const funded = await fundProject({ db: db(), projectId: "p", actorId: "own", input: { asset: Q, amount: FUNDS * 10n ** 18n, requestKey: "fund" } });
  if (!funded.ok) throw new Error("the treasury was not funded");
});
afterAll(() => database.close());

/** One save of the form: a total in whole QUEST, published or not. */
const saveArb = fc.record({ total: fc.integer({ min: 1, max: 1_200 }), published: fc.boolean() });

describe("an airdrop's escrow over any sequence of saves", () => {
  it("holds exactly its total while published and nothing otherwise; a refused save moves nothing; the treasury and the escrow always add up", async () => {
    let run = 0;
    const created = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(saveArb, { minLength: 1, maxLength: 8 }), async (saves) => {
        run += 1;
        let id: string | undefined;
        let expected = 0n;
        for (const { total, published } of saves) {
          const data = new FormData();
          const fields = {
            name: "Drop",
            slug: `drop-${run}`,
            asset: Q,
            rule: "pro_rata",
            total: String(total),
            startsAt: iso(1),
            endsAt: iso(5),
            claimDeadline: iso(20),
          };
          for (const [key, value] of Object.entries(fields)) data.set(key, value);
          if (published) data.set("published", "on");
          const parsed = parseForm(airdropSchema, data);
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
          const saved = await saveAirdrop({ db: db(), projectId: "p", airdropId: id, input: parsed.data, distributorChains: new Set([31337]), now: T });
          const units = BigInt(total) * 10n ** 18n;
          // The treasury holds FUNDS less this airdrop's escrow: a publish beyond it is refused.
          const fits = units <= FUNDS * 10n ** 18n;
          expect(saved.ok).toBe(!published || fits);
          if (saved.ok) {
            id = saved.airdrop.id;
            created.add(id);
            expected = published ? units : 0n;
          }
          const escrow = id ? await accountBalance({ db: db(), account: airdropEscrow(id), asset: Q }) : 0n;
          expect(escrow).toBe(expected);
          expect(escrow + (await accountBalance({ db: db(), account: projectTreasury("p"), asset: Q }))).toBe(FUNDS * 10n ** 18n);
        }
        // Unpublished at the end: everything is back in the treasury for the next run.
        if (id) {
          const data = new FormData();
          for (const [key, value] of Object.entries({
            name: "Drop",
            slug: `drop-${run}`,
            asset: Q,
            rule: "pro_rata",
            total: "1",
            startsAt: iso(1),
            endsAt: iso(5),
            claimDeadline: iso(20),
          })) {
            data.set(key, value);
          }
          const parsed = parseForm(airdropSchema, data);
          if (parsed.ok) await saveAirdrop({ db: db(), projectId: "p", airdropId: id, input: parsed.data, distributorChains: new Set([31337]), now: T });
        }
      }),
      { numRuns: 25 },
    );
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
    expect(await db().select().from(airdrop)).toHaveLength(created.size);
  });
});

/** The airdrop form's fields, as the owner sends them. */
function airdropForm(fields: { slug: string; total: number; startDay: number; published: boolean }) {
  const data = new FormData();
  const values = {
    name: "Drop",
    slug: fields.slug,
    asset: Q,
    rule: "pro_rata",
    total: String(fields.total),
    startsAt: iso(fields.startDay),
    endsAt: iso(5),
    claimDeadline: iso(20),
  };
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  if (fields.published) data.set("published", "on");
  const parsed = parseForm(airdropSchema, data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.data;
}

/** A save of the form (its total, start and published box), a status changed by another path, or points earned. */
const stepArb = fc.oneof(
  fc.record({
    op: fc.constant("save" as const),
    total: fc.integer({ min: 1, max: 30 }),
    startDay: fc.integer({ min: -3, max: 3 }),
    published: fc.boolean(),
  }),
  fc.record({ op: fc.constant("row" as const), startDay: fc.integer({ min: -3, max: 3 }), published: fc.boolean() }),
  fc.record({ op: fc.constant("points" as const), who: fc.constantFrom("m", "own"), points: fc.integer({ min: 1, max: 100 }) }),
);

// Each run's airdrop keeps its escrow (at most 30 QUEST): 25 runs stay within the treasury's 1,000.
describe("an airdrop's escrow once members earn points", () => {
  it("never goes down over any sequence of saves and status changes; through the form it stays published and started", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (first, steps) => {
        run += 1;
        const slug = `entered-${run}`;
        const created = await saveAirdrop({
          db: db(),
          projectId: "p",
          input: airdropForm({ slug, total: first, startDay: -1, published: true }),
          distributorChains: new Set([31337]),
          now: T,
        });
        if (!created.ok) throw new Error(JSON.stringify(created.errors));
        const id = created.airdrop.id;
        let entered = false;
        for (const step of steps) {
          const [before] = await db().select().from(airdrop).where(eq(airdrop.id, id));
          const live = before!.publishedAt !== null && before!.startsAt <= T;
          if (step.op === "save") {
            const input = airdropForm({ slug, ...step });
            const saved = await saveAirdrop({ db: db(), projectId: "p", airdropId: id, input, distributorChains: new Set([31337]), now: T });
            const unpublishes = before!.publishedAt !== null && !step.published;
            const reschedules = before!.startsAt <= T && input.startsAt > T;
            const lowers = input.total < before!.total;
            expect(saved.ok).toBe(!(entered && (unpublishes || reschedules || lowers)));
            if (!saved.ok) {
              expect(saved.errors).toEqual(
                unpublishes
                  ? { published: AIRDROP_ENTERED.unpublish }
                  : reschedules
                    ? { startsAt: AIRDROP_ENTERED.reschedule }
                    : { total: AIRDROP_ENTERED.lower },
              );
            }
          } else if (step.op === "row") {
            // A status changed by another path than the form: the total's rule holds anyway.
            await db()
              .update(airdrop)
              .set({ publishedAt: step.published ? T : null, startsAt: new Date(iso(step.startDay)) })
              .where(eq(airdrop.id, id));
          } else if (live) {
            // Points are earned only while the airdrop runs; the project's own team earns nobody an entry.
            await addBoardPoints({ db: db(), board: boardKey({ kind: "airdrop", airdropId: id }, "all"), userId: step.who, points: step.points, at: T });
            if (step.who === "m") entered = true;
          }
          const [after] = await db().select().from(airdrop).where(eq(airdrop.id, id));
          if (entered) {
            expect(after!.total).toBeGreaterThanOrEqual(before!.total);
            if (after!.publishedAt !== null) expect(after!.escrowed).toBeGreaterThanOrEqual(before!.escrowed);
            if (live && step.op === "save") expect(after!.publishedAt !== null && after!.startsAt <= T).toBe(true);
          }
          expect(await accountBalance({ db: db(), account: airdropEscrow(id), asset: Q })).toBe(after!.escrowed);
        }
        const held = (await db().select({ escrowed: airdrop.escrowed }).from(airdrop)).reduce((sum, a) => sum + a.escrowed, 0n);
        expect(held + (await accountBalance({ db: db(), account: projectTreasury("p"), asset: Q }))).toBe(FUNDS * 10n ** 18n);
      }),
      { numRuns: 25 },
    );
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });
});
