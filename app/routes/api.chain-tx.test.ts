import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { Services } from "~/services/services.server";
import { localRegistry } from "#tests/setup/local-registry";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./api.chain-tx";

let chain: LocalChain;
let services: Services;
let cookie: string;
beforeAll(async () => {
  chain = await startLocalChain();
  const base = await createTestServices();
  services = { ...base, chains: localRegistry({ url: chain.url }) };
  ({ cookie } = await signedInMember(services, "tx-reader"));
});
afterAll(async () => {
  await services.close();
  await chain.stop();
});

const get = (query: string, headers: HeadersInit = { cookie }, on: Services = services) =>
  answer(() => loader(routeArgs(on, new Request(`http://localhost:3000/api/chain/tx?${query}`, { headers }))));

describe("GET /api/chain/tx", () => {
  it("sends a visitor to sign in first", async () => {
    const response = (await get("chainId=31337&hash=0x00", {})) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/api/chain/tx?chainId=31337&hash=0x00")}`);
  });

  it("refuses a malformed query and a chain the server has no node for, in words", async () => {
    const bad = (await get("chainId=31337&hash=0x12")) as Response;
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "hash must be a transaction hash" });
    const unknown = (await get(`chainId=999&hash=0x${"ab".repeat(32)}`)) as Response;
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: "No node for chain 999" });
  });

  it("follows a transaction through the registry's client: unknown, then mined", async () => {
    const none = (await get(`chainId=31337&hash=0x${"ab".repeat(32)}`)) as Response;
    expect(await none.json()).toEqual({ status: "unknown" });
    const wallet = createWalletClient({ chain: anvil, transport: http(chain.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[3]) });
    const hash = await wallet.sendTransaction({ to: privateKeyToAccount(DEV_PRIVATE_KEYS[4]).address, value: parseEther("1") });
    // anvil hands back the hash before its receipt is there on a busy machine: ask once it is mined.
    await createPublicClient({ chain: anvil, transport: http(chain.url) }).waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const mined = (await get(`chainId=31337&hash=${hash}`)) as Response;
    expect(mined.status).toBe(200);
    expect(await mined.json()).toEqual({ status: "success" });
  });

  it("answers 503 in words when the chain's node does not answer", async () => {
    const down = { ...services, chains: localRegistry({ url: "http://127.0.0.1:9" }) };
    const response = (await get(`chainId=31337&hash=0x${"ab".repeat(32)}`, { cookie }, down)) as Response;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: "The network's node did not answer" });
  });
});
