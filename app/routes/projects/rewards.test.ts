import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, credit, projectTreasury } from "~/modules/ledger/ledger.server";
import { REWARD_ACTIONS_FLOODED, REWARD_ACTIONS_PER_MINUTE } from "~/modules/rewards/reward-form";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./rewards";

const Q = questAsset(31337);
let services: Services;
let owner: string;
let admin: string;
beforeAll(async () => {
  services = await createTestServices();
  ({ cookie: owner } = await signedInMember(services, "own"));
  ({ cookie: admin } = await signedInMember(services, "adm"));
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "adm", role: "admin" },
  ]);
  await credit({ db, key: "gift:own", kind: "credit", userId: "own", asset: Q, amount: 100n * 10n ** 18n });
});
afterAll(() => services.close());

const fund = (cookie: string, amount: string) =>
  answer(() =>
    action(
      routeArgs(
        services,
        new Request("http://localhost:3000/projects/p/rewards", {
          method: "POST",
          headers: { cookie },
          body: new URLSearchParams({ asset: Q, amount, requestKey: randomUUID() }),
        }),
        { project: "p" },
      ),
    ),
  );

type Answer = { data: { errors: Record<string, string> }; init: { status: number; headers?: Record<string, string> } | null };

describe("Fund on a project's Rewards page", () => {
  it("answers a flood of reward actions 429 in words after the member's limit, moves nothing, and leaves other members alone", async () => {
    const funded = (await fund(owner, "1")) as Response;
    expect(funded.status).toBe(302);
    for (let i = 1; i < REWARD_ACTIONS_PER_MINUTE; i++) {
      const refused = (await fund(owner, "lots")) as Answer;
      expect(refused.init?.status).toBe(400);
    }
    const flooded = (await fund(owner, "1")) as Answer;
    expect(flooded.init?.status).toBe(429);
    expect(flooded.data.errors).toEqual({ form: REWARD_ACTIONS_FLOODED });
    expect(Number(flooded.init?.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(await accountBalance({ db: services.database.db, account: projectTreasury("p"), asset: Q })).toBe(10n ** 18n);
    // The admin has a limit of their own: their (bad) request is read, not refused.
    expect(((await fund(admin, "lots")) as Answer).init?.status).toBe(400);
  });
});

describe("a project's Rewards page", () => {
  it("tells every visitor the token its rewards are paid in, once the project has chosen one", async () => {
    const visit = () => loader(routeArgs(services, new Request("http://localhost:3000/projects/p/rewards"), { project: "p" }));
    expect((await visit()).project.rewardAsset).toBeNull();
    await services.database.db.update(project).set({ rewardAsset: "USDC:31338" }).where(eq(project.id, "p"));
    const page = await visit();
    expect(page.project.rewardAsset).toBe("USDC:31338");
    expect(page.manages).toBe(false);
  });
});
