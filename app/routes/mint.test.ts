import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { DEMO_TOKENS_PER_ACCOUNT, ensureLocalContracts } from "~/modules/chain/contracts.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import type { Services } from "~/services/services.server";
import { localRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./mint";

let chain: LocalChain;
let services: Services;
let contracts: ContractAddresses;
let cookie: string;
beforeAll(async () => {
  chain = await startLocalChain();
  ({ addresses: contracts } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") }));
  const base = await createTestServices();
  services = { ...base, chains: localRegistry({ url: chain.url, contracts }) };
  ({ cookie } = await signedInMember(services, "minter"));
});
afterAll(async () => {
  await services.close();
  await chain.stop();
});

const mint = (query = "", headers: HeadersInit = { cookie }, on: Services = services) =>
  answer(() => loader(routeArgs(on, new Request(`http://localhost:3000/mint${query}`, { headers }))));

describe("the Mint screen's loader", () => {
  it("sends a visitor to sign in", async () => {
    const response = (await mint("", {})) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fmint");
  });

  it("reads the token on the local chain, with the remembered wallet's own figures on the first paint", async () => {
    const screen = await mint("", { cookie: `${cookie}; wallet=${DEV_ADDRESSES[2]}:31337` });
    expect(screen).toMatchObject({ ok: true, chainId: 31337, chainName: "Questline Local", coin: "ETH", chainIds: [31337] });
    if (screen instanceof Response || !screen.ok) throw new Error("no facts");
    expect(screen.facts).toMatchObject({
      token: contracts.QuestToken,
      symbol: "QUEST",
      member: { address: DEV_ADDRESSES[2], balance: DEMO_TOKENS_PER_ACCOUNT.toString() },
    });
  });

  it("reads ?account= instead, and shows no member figures for a malformed one", async () => {
    const asked = await mint(`?account=${DEV_ADDRESSES[5].toLowerCase()}`);
    expect(asked).toMatchObject({ ok: true, facts: { member: { address: DEV_ADDRESSES[5] } } });
    expect(await mint("?account=0x123")).toMatchObject({ ok: true, facts: { member: null } });
  });

  it("says so, not fails, when no chain has our contracts or the node does not answer", async () => {
    expect(await mint("", { cookie }, { ...services, chains: localRegistry({ url: chain.url }) })).toEqual({ ok: false, reason: "none" });
    const down = { ...services, chains: localRegistry({ url: "http://127.0.0.1:9", contracts }) };
    expect(await mint("", { cookie }, down)).toEqual({
      ok: false,
      reason: "node",
      chainId: 31337,
      chainName: "Questline Local",
      coin: "ETH",
      chainIds: [31337],
    });
  });
});
