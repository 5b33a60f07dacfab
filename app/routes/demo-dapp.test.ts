import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SWAP_RATE, DEMO_SWAP_RESERVES, type DemoContracts } from "#contracts/deploy";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { DEMO_STABLECOIN_PER_ACCOUNT, DEMO_TOKENS_PER_ACCOUNT, ensureLocalContracts } from "~/modules/chain/contracts.server";
import type { ContractAddresses, VaultToken } from "~/modules/chain/contract-addresses.server";
import type { Services } from "~/services/services.server";
import { localRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./demo-dapp";

let chain: LocalChain;
let services: Services;
let contracts: ContractAddresses;
let tokens: VaultToken[];
let demo: DemoContracts;
let cookie: string;
beforeAll(async () => {
  chain = await startLocalChain();
  const local = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
  ({ addresses: contracts, tokens } = local);
  demo = local.demo!;
  const base = await createTestServices();
  services = { ...base, chains: localRegistry({ url: chain.url, contracts, tokens, demo }) };
  ({ cookie } = await signedInMember(services, "demo-dapp"));
});
afterAll(async () => {
  await services.close();
  await chain.stop();
});

const demoDapp = (query = "", headers: HeadersInit = { cookie }, on: Services = services) =>
  answer(() => loader(routeArgs(on, new Request(`http://localhost:3000/demo-dapp${query}`, { headers }))));

describe("the Demo dApp's loader", () => {
  it("is not found where no chain has demo contracts, signed in or not", async () => {
    const without = { ...services, chains: localRegistry({ url: chain.url, contracts, tokens }) };
    for (const headers of [{ cookie }, {}] as HeadersInit[]) {
      const thrown = (await demoDapp("", headers, without)) as unknown as { init?: { status?: number } };
      expect(thrown.init?.status).toBe(404);
    }
  });

  it("sends a visitor to sign in where there are demo contracts", async () => {
    const response = (await demoDapp("", {})) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fdemo-dapp");
  });

  it("reads the contracts, the swap's pair, rate and reserves, and the asked wallet's holdings", async () => {
    const page = await demoDapp(`?account=${DEV_ADDRESSES[3].toLowerCase()}`);
    if (page instanceof Response) throw new Error(`status ${page.status}`);
    expect(page.chains).toEqual([
      {
        ok: true,
        chainId: 31337,
        chainName: "Questline Local",
        coin: "ETH",
        collection: demo.DemoCollection,
        items: demo.DemoItems,
        swap: demo.DemoSwap,
        tokenA: { address: contracts.QuestToken, symbol: "QUEST", decimals: 18 },
        tokenB: { address: tokens[0]!.address, symbol: "USDC", decimals: 6 },
        rate: DEMO_SWAP_RATE.toString(),
        reserves: { a: DEMO_SWAP_RESERVES.quest.toString(), b: DEMO_SWAP_RESERVES.usdc.toString() },
        chainTime: expect.any(Number),
        member: {
          address: DEV_ADDRESSES[3],
          explorers: "0",
          items: ["0", "0", "0"],
          a: DEMO_TOKENS_PER_ACCOUNT.toString(),
          b: DEMO_STABLECOIN_PER_ACCOUNT.toString(),
          allowanceA: "0",
          allowanceB: "0",
        },
      },
    ]);
    // No wallet known: the contracts without holdings.
    expect(await demoDapp()).toMatchObject({ chains: [{ ok: true, member: null }] });
  });

  it("says a chain's node did not answer, not fails", async () => {
    const down = { ...services, chains: localRegistry({ url: "http://127.0.0.1:9", contracts, tokens, demo }) };
    expect(await demoDapp("", { cookie }, down)).toEqual({ chains: [{ ok: false, chainId: 31337, chainName: "Questline Local" }] });
  });
});
