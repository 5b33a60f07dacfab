import { Wallet } from "ethers";
import { SiweMessage } from "siwe";
import { createPublicClient, getAddress, http, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { localRegistry } from "#tests/setup/local-registry";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { checkSiweSignature } from "./siwe.server";

/**
 * A contract wallet (ERC-1271) cannot sign with a key: its signature is checked by asking the
 * contract, on the chain, through our own node. The local chain hosts a wallet contract
 * whose `isValidSignature` approves a signature only from its owner.
 */
let chain: LocalChain;
const owner = Wallet.createRandom();
const contract = getAddress("0x00000000000000000000000000000000c0ffee01");

// Runtime code: isValidSignature(bytes32,bytes) returns 0x1626ba7e when the signature's first
// 32 bytes equal the owner's tag stored in slot 0, else 0xffffffff.
// calldataload(0x64) is the first word of the `bytes` argument.
const runtime = ("0x" +
  "6064" +
  "35" + // PUSH1 0x64 CALLDATALOAD
  "6000" +
  "54" + // PUSH1 0 SLOAD
  "14" + // EQ
  "601a" +
  "57" + // PUSH1 0x1a JUMPI
  "63ffffffff" +
  "60e0" +
  "1b" +
  "6000" +
  "52" +
  "6020" +
  "6000" +
  "f3" + // return 0xffffffff << 224
  "5b" + // JUMPDEST (0x1a)
  "631626ba7e" +
  "60e0" +
  "1b" +
  "6000" +
  "52" +
  "6020" +
  "6000" +
  "f3") as Hex; // return magic

const tag = `0x${"ab".repeat(32)}` as Hex;

beforeAll(async () => {
  chain = await startLocalChain();
  const client = createPublicClient({ transport: http(chain.url) });
  await client.request({ method: "anvil_setCode" as "eth_chainId", params: [contract, runtime] as never });
  await client.request({ method: "anvil_setStorageAt" as "eth_chainId", params: [contract, "0x0", tag] as never });
});
afterAll(() => chain.stop());

const clientFor = (chainId: number) => localRegistry({ url: chain.url }).get(chainId)?.client;

function message(address: string) {
  return new SiweMessage({
    domain: "localhost:3000",
    address,
    uri: "http://localhost:3000",
    version: "1",
    chainId: LOCAL_CHAIN_ID,
    nonce: "abcdefgh1234",
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
}

describe("contract wallet signatures", () => {
  it("are accepted when the wallet contract approves them", async () => {
    const signature = `${tag}${"00".repeat(33)}`;
    await expect(
      checkSiweSignature({ message: message(contract), signature, address: contract, chainId: LOCAL_CHAIN_ID }, { clientFor }),
    ).resolves.toBeUndefined();
  });

  it("are refused when the contract does not approve them", async () => {
    const signature = `0x${"cd".repeat(32)}${"00".repeat(33)}`;
    await expect(checkSiweSignature({ message: message(contract), signature, address: contract, chainId: LOCAL_CHAIN_ID }, { clientFor })).rejects.toThrow(
      /signature does not match/,
    );
  });

  it("are checked locally for ordinary accounts, with no chain at all", async () => {
    const text = message(owner.address);
    await expect(
      checkSiweSignature(
        { message: text, signature: await owner.signMessage(text), address: owner.address as Hex, chainId: 56 },
        { clientFor: () => undefined },
      ),
    ).resolves.toBeUndefined();
  });
});
