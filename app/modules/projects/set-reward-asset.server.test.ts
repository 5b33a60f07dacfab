import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { chainTransport } from "~/wallet/chain-config";
import { LISTED_LUMEN, LISTED_USDC, twoVaultRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { rewardAssetSchema } from "./reward-asset.schema";
import { payableAssets, rewardDecimals, setRewardAsset } from "./set-reward-asset.server";

/** Contracts as a deployment file names them (nothing here calls a node: the registry is only read). */

/** A deployment on both local chains, USDC and LUMEN listed on the second only, and a chain with a node but no vault (56). */
const chains = twoVaultRegistry({
  tokens: [LISTED_USDC, LISTED_LUMEN],
  others: [{ id: 56, transport: chainTransport(["http://127.0.0.1:9"]), confirmations: 12 }],
});

let database: Database;
const db = () => database.db;
const saved = async () => (await db().select({ rewardAsset: project.rewardAsset }).from(project).where(eq(project.id, "p")))[0]!.rewardAsset;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "adm", "rev", "out"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(projectMember)
    .values([
      { projectId: "p", userId: "own", role: "owner" },
      { projectId: "p", userId: "adm", role: "admin" },
      { projectId: "p", userId: "rev", role: "reviewer" },
    ]);
});
afterAll(() => database.close());

describe("the assets a project may pay its rewards in", () => {
  it("are every vault chain's listed tokens, whatever their decimals, QUEST first, named by chain", () => {
    expect(payableAssets(chains)).toEqual([
      { asset: `QUEST:${LOCAL_CHAIN_ID}`, label: "QUEST on Questline Local" },
      { asset: `QUEST:${SECOND_LOCAL_CHAIN_ID}`, label: "QUEST on Questline Local B" },
      { asset: `USDC:${SECOND_LOCAL_CHAIN_ID}`, label: "USDC on Questline Local B" },
      { asset: `LUMEN:${SECOND_LOCAL_CHAIN_ID}`, label: "LUMEN on Questline Local B" },
    ]);
  });

  it("let a token reward pay any asset, counted in its own decimals (USDC's 6)", () => {
    expect(rewardDecimals(chains, `QUEST:${LOCAL_CHAIN_ID}`)).toBe(18);
    expect(rewardDecimals(chains, "not an asset")).toBeNull();
    expect(rewardDecimals(chains, `USDC:${SECOND_LOCAL_CHAIN_ID}`)).toBe(6);
    expect(rewardDecimals(chains, `LUMEN:${SECOND_LOCAL_CHAIN_ID}`)).toBe(18);
    // A token no chain here lists counts in QUEST's 18, as before; no asset, no decimals.
    expect(rewardDecimals(chains, "QUEST:56")).toBe(18);
    expect(rewardDecimals(chains, null)).toBeNull();
  });
});

describe("the Rewards token form", () => {
  it("reads an asset, or none when empty", () => {
    expect(rewardAssetSchema.safeParse({ rewardAsset: " USDC:31338 " }).data).toEqual({ rewardAsset: "USDC:31338" });
    expect(rewardAssetSchema.safeParse({ rewardAsset: "" }).data).toEqual({ rewardAsset: null });
  });

  it("refuses what is not an asset, in words", () => {
    for (const rewardAsset of ["usdc", "USDC:", "USDC:0", ":31337", "USDC:31337;drop", 7, undefined]) {
      const parsed = rewardAssetSchema.safeParse({ rewardAsset });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("Choose a token from the list");
    }
  });
});

describe("setRewardAsset", () => {
  it("lets the owner and admins choose the token, and clear it", async () => {
    expect(await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "own", asset: `LUMEN:${SECOND_LOCAL_CHAIN_ID}` })).toEqual({
      ok: true,
      rewardAsset: "LUMEN:31338",
    });
    expect(await saved()).toBe("LUMEN:31338");
    // USDC of 6 decimals too: rewards count in each token's own.
    expect(await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "adm", asset: `USDC:${SECOND_LOCAL_CHAIN_ID}` })).toEqual({
      ok: true,
      rewardAsset: "USDC:31338",
    });
    await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "adm", asset: `QUEST:${LOCAL_CHAIN_ID}` });
    expect(await saved()).toBe("QUEST:31337");
    await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "adm", asset: null });
    expect(await saved()).toBeNull();
  });

  it("refuses reviewers and members outside the team with a 403, and changes nothing", async () => {
    await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "own", asset: `QUEST:${SECOND_LOCAL_CHAIN_ID}` });
    for (const actorId of ["rev", "out"]) {
      await expect(setRewardAsset({ db: db(), chains, projectId: "p", actorId, asset: `USDC:${SECOND_LOCAL_CHAIN_ID}` })).rejects.toMatchObject({
        init: { status: 403 },
      });
      await expect(setRewardAsset({ db: db(), chains, projectId: "p", actorId, asset: null })).rejects.toMatchObject({ init: { status: 403 } });
    }
    expect(await saved()).toBe("QUEST:31338");
  });

  it("refuses an asset this deployment does not pay, saying which, and changes nothing", async () => {
    await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "own", asset: `QUEST:${SECOND_LOCAL_CHAIN_ID}` });
    const refused = {
      // USDC is listed on the second chain only (where it is chosen, in its 6 decimals: see above).
      "USDC:31337": "USDC on Questline Local is not a token rewards can be paid in here: choose one from the list.",
      // BNB Smart Chain has a node here but no vault.
      "QUEST:56": "QUEST on BNB Smart Chain is not a token rewards can be paid in here: choose one from the list.",
      // A chain nobody knows.
      "QUEST:999": "QUEST on chain 999 is not a token rewards can be paid in here: choose one from the list.",
    } as const;
    for (const [asset, message] of Object.entries(refused)) {
      expect(await setRewardAsset({ db: db(), chains, projectId: "p", actorId: "own", asset: asset as `${string}:${number}` })).toEqual({
        ok: false,
        code: "invalid",
        errors: { rewardAsset: message },
      });
    }
    expect(await saved()).toBe("QUEST:31338");
  });
});
