import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop, airdropRound } from "#db/schema/airdrops";
import { project, projectMember } from "#db/schema/projects";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import type { Services } from "~/services/services.server";
import { localRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./show";

let chain: LocalChain;
let services: Services;
const cookies: Record<string, string> = {};
/** The chain's clock at the start: the round's deadline is set around it. */
let chainNow: number;

beforeAll(async () => {
  chain = await startLocalChain();
  const { addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
  services = { ...(await createTestServices()), chains: localRegistry({ url: chain.url, contracts: addresses }) };
  for (const id of ["own", "adm", "rev", "mem"]) ({ cookie: cookies[id] } = await signedInMember(services, id));
  const db = services.database.db;
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "adm", role: "admin" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
  chainNow = Number((await services.chains.get(31337)!.client.getBlock()).timestamp);
  const day = 86_400_000;
  await db.insert(airdrop).values({
    id: "a",
    projectId: "p",
    slug: "drop",
    name: "Drop",
    asset: "QUEST:31337",
    rule: "pro_rata",
    total: 100n,
    startsAt: new Date(chainNow * 1000 - 3 * day),
    endsAt: new Date(chainNow * 1000 - 2 * day),
    claimDeadline: new Date(chainNow * 1000 + day),
    publishedAt: new Date(chainNow * 1000 - 4 * day),
    status: "frozen",
    root: `0x${"11".repeat(32)}`,
    leaves: 1,
    claimable: 100n,
    unclaimable: 0n,
  });
  await db.insert(airdropRound).values({
    airdropId: "a",
    chainId: 31337,
    distributor: addresses.AirdropDistributor,
    fundingId: `0x${"22".repeat(32)}`,
    total: 100n,
    deadline: chainNow + 86_400,
    step: "open",
    roundId: 0,
  });
}, 60_000);
afterAll(async () => {
  await services.close();
  await chain.stop();
});

const url = "http://localhost:3000/projects/p/airdrops/drop";
const sweep = (cookie: string | null, intent = "sweep") =>
  answer(() =>
    action(
      routeArgs(services, new Request(url, { method: "POST", headers: cookie ? { cookie } : {}, body: new URLSearchParams({ intent }) }), {
        project: "p",
        airdrop: "drop",
      }),
    ),
  );
const page = (cookie: string) => loader(routeArgs(services, new Request(url, { headers: { cookie } }), { project: "p", airdrop: "drop" }));
const stepOf = async () => (await services.database.db.select().from(airdropRound).where(eq(airdropRound.airdropId, "a")))[0]!.step;
type Refusal = { data: unknown; init: { status: number } | null };

describe("an airdrop's Sweep", () => {
  it("is only for the project's owners and admins: a visitor signs in, a reviewer or a member is refused, nothing changes", async () => {
    expect(((await sweep(null)) as Response).status).toBe(302);
    for (const who of ["rev", "mem"]) expect(((await sweep(cookies[who]!)) as Refusal).init?.status).toBe(403);
    expect(await stepOf()).toBe("open");
    // Only they see the round's panel.
    expect((await page(cookies.rev!)).round).toBeNull();
    expect((await page(cookies.own!)).round).toMatchObject({ step: "open", sweepable: false });
  });

  it("is refused in words while claims are open on the chain's clock, then asked for once they closed", async () => {
    const early = (await sweep(cookies.adm!)) as Refusal;
    expect(early.init?.status).toBe(409);
    expect(early.data).toEqual({ errors: { form: "Claims are still open on chain: the rest can be swept once they close." } });
    expect(await stepOf()).toBe("open");

    await services.chains.get(31337)!.client.request({ method: "evm_setNextBlockTimestamp" as never, params: [chainNow + 86_400] as never });
    await services.chains.get(31337)!.client.request({ method: "evm_mine" as never });
    expect((await page(cookies.own!)).round).toMatchObject({ sweepable: true });
    const asked = (await sweep(cookies.adm!)) as Response;
    expect(asked.status).toBe(302);
    expect(await stepOf()).toBe("sweeping");
    const again = (await sweep(cookies.own!)) as Refusal;
    expect(again.init?.status).toBe(409);
    expect(again.data).toEqual({ errors: { form: "This round is not open: it was swept already, or it is still being opened." } });
  });

  it("refuses an action it does not know", async () => {
    expect(((await sweep(cookies.own!, "pay-me")) as Refusal).init?.status).toBe(409);
  });
});
