import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { readFlash } from "~/lib/flash.server";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import type { Services } from "~/services/services.server";
import { LISTED_LUMEN, LISTED_USDC, twoVaultRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./edit";

let services: Services;
const cookies: Record<"owner" | "admin" | "reviewer" | "member", string> = { owner: "", admin: "", reviewer: "", member: "" };
beforeAll(async () => {
  const base = await createTestServices();
  // The deployment these requests meet: vaults on both local chains, a stand-in USDC (6 decimals, a rewards
  // token counted in its own decimals) and a project token LUMEN (18) on the second
  // (the registry's own builder; nothing here calls a node).
  services = {
    ...base,
    chains: twoVaultRegistry({ tokens: [LISTED_USDC, LISTED_LUMEN] }),
  };
  for (const role of ["owner", "admin", "reviewer", "member"] as const) ({ cookie: cookies[role] } = await signedInMember(services, role));
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "P", description: "Kept as it is" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "owner", role: "owner" },
    { projectId: "p", userId: "admin", role: "admin" },
    { projectId: "p", userId: "reviewer", role: "reviewer" },
  ]);
});
afterAll(() => services.close());

const choose = (cookie: string | null, rewardAsset: string) =>
  answer(() =>
    action(
      routeArgs(
        services,
        new Request("http://localhost:3000/projects/p/edit", {
          method: "POST",
          headers: cookie ? { cookie } : {},
          body: new URLSearchParams({ intent: "reward-asset", rewardAsset }),
        }),
        { project: "p" },
      ),
    ),
  );

const saved = async () =>
  (await services.database.db.select({ rewardAsset: project.rewardAsset, description: project.description }).from(project).where(eq(project.id, "p")))[0]!;

type Refused = { data: { errors: Record<string, string>; rewardAsset: string }; init: { status: number } | null };

describe("the Rewards token on a project's edit screen", () => {
  it("offers the owner every token this deployment pays, and the saved choice", async () => {
    const page = await loader(
      routeArgs(services, new Request("http://localhost:3000/projects/p/edit", { headers: { cookie: cookies.owner } }), { project: "p" }),
    );
    expect(page.rewardAssets.map((option) => option.label)).toEqual([
      "QUEST on Questline Local",
      "QUEST on Questline Local B",
      "USDC on Questline Local B",
      "LUMEN on Questline Local B",
    ]);
    expect(page.project.rewardAsset).toBeNull();
  });

  it("is saved by an owner or an admin, with a toast in words, and leaves the project's other fields alone", async () => {
    const byOwner = (await choose(cookies.owner, `LUMEN:${SECOND_LOCAL_CHAIN_ID}`)) as Response;
    expect(byOwner.status).toBe(302);
    expect(byOwner.headers.get("location")).toBe("/projects/p/edit");
    const toast = readFlash(new Request("http://localhost:3000/", { headers: { cookie: byOwner.headers.get("set-cookie")!.split(";")[0]! } }), {
      appUrl: services.env.APP_URL,
    });
    expect(toast.flash?.message).toBe("Rewards are paid in LUMEN on Questline Local B");
    expect(await saved()).toEqual({ rewardAsset: "LUMEN:31338", description: "Kept as it is" });
    // USDC's 6 decimals are no bar: reward amounts count in each token's own.
    expect(((await choose(cookies.admin, `USDC:${SECOND_LOCAL_CHAIN_ID}`)) as Response).status).toBe(302);
    expect((await saved()).rewardAsset).toBe("USDC:31338");
    expect(((await choose(cookies.admin, `QUEST:${LOCAL_CHAIN_ID}`)) as Response).status).toBe(302);
    expect((await saved()).rewardAsset).toBe("QUEST:31337");
  });

  it("is refused to a reviewer and a member outside the team (403) and sends a visitor to sign in; nothing changes", async () => {
    for (const cookie of [cookies.reviewer, cookies.member]) {
      expect(await choose(cookie, `LUMEN:${SECOND_LOCAL_CHAIN_ID}`)).toMatchObject({ init: { status: 403 } });
    }
    const visitor = (await choose(null, `LUMEN:${SECOND_LOCAL_CHAIN_ID}`)) as Response;
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    expect((await saved()).rewardAsset).toBe("QUEST:31337");
  });

  it("refuses a token this deployment does not pay, or no token at all, on the field (400), keeping what was sent; nothing changes", async () => {
    const notPaid = (await choose(cookies.owner, "USDC:31337")) as Refused;
    expect(notPaid.init?.status).toBe(400);
    expect(notPaid.data).toEqual({
      rewardAsset: "USDC:31337",
      errors: { rewardAsset: "USDC on Questline Local is not a token rewards can be paid in here: choose one from the list." },
    });
    const garbage = (await choose(cookies.owner, "<script>")) as Refused;
    expect(garbage.init?.status).toBe(400);
    expect(garbage.data.errors).toEqual({ rewardAsset: "Choose a token from the list" });
    expect((await saved()).rewardAsset).toBe("QUEST:31337");
  });

  it("is cleared by choosing none", async () => {
    expect(((await choose(cookies.owner, "")) as Response).status).toBe(302);
    expect((await saved()).rewardAsset).toBeNull();
  });
});
