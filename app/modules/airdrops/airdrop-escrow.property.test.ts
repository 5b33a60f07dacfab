import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, airdropEscrow, checkLedger, credit, projectTreasury } from "~/modules/ledger/ledger.server";
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
  await db().insert(user).values({ id: "own", email: "own@example.com", name: "own" });
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
