import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { project } from "#db/schema/projects";
import { campaign, type task } from "#db/schema/quests";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { readTaskForm, taskFormRefusals, taskFormValues } from "./task-form.server";

const chainIds = [LOCAL_CHAIN_ID];
const QUEST_ABI = JSON.stringify([
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ type: "bool" }],
  },
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "s", type: "address" },
      { name: "v", type: "uint256" },
    ],
    outputs: [],
  },
]);
const TRANSFER_EVENT = "Transfer(address indexed from, address indexed to, uint256 value)";
const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

const form = (type: string, fields: Record<string, string>) => {
  const fd = new FormData();
  const base = {
    title: "On chain",
    description: "",
    type,
    xp: "20",
    verification: "auto",
    recurrence: "once",
    startsAt: "",
    endsAt: "",
    cap: "",
    campaignId: "",
  };
  for (const [k, v] of Object.entries({ ...base, "config.chainId": String(LOCAL_CHAIN_ID), ...fields })) fd.set(k, v);
  return fd;
};
const refusals = (type: string, fields: Record<string, string>) => {
  const read = readTaskForm(form(type, fields), { chainIds });
  if (read.ok) throw new Error("expected a refusal");
  return read;
};
const accepted = (type: string, fields: Record<string, string>) => {
  const read = readTaskForm(form(type, fields), { chainIds });
  if (!read.ok) throw new Error(`refused: ${JSON.stringify(read.errors)}`);
  return read;
};
/** A saved task with this config, as the edit form would load it. */
const saved = (type: string, config: Record<string, unknown>) =>
  ({
    title: "t",
    description: "",
    type,
    xp: 1,
    verification: "auto",
    recurrence: "once",
    startsAt: null,
    endsAt: null,
    cap: null,
    campaignId: null,
    airdropId: null,
    publishedAt: null,
    config,
  }) as unknown as typeof task.$inferSelect;

describe("the task form's on-chain fields", () => {
  it("contract_call: turns signatures, ETH and a token amount into selectors, wei and units, and back on edit", () => {
    const read = accepted("contract_call", {
      "config.contract": CONTRACT,
      "config.abi": QUEST_ABI,
      "config.signatures": "transfer(address to, uint256 value)\n0x095ea7b3\ntransfer(address,uint256)",
      "config.minValue": "0.01",
      "config.transferToken": CONTRACT,
      "config.transferMinAmount": "1.5",
      "config.transferSymbol": "QUEST",
      "config.transferDecimals": "18",
      "config.actionUrl": "/demo-dapp",
    });
    expect(read.input.config).toEqual({
      chainId: LOCAL_CHAIN_ID,
      contract: CONTRACT,
      functions: [
        { selector: "0xa9059cbb", signature: "transfer(address,uint256)" },
        { selector: "0x095ea7b3", signature: "approve(address,uint256)" },
      ],
      minValue: "10000000000000000",
      transfer: { token: CONTRACT, minAmount: "1500000000000000000", symbol: "QUEST", decimals: 18 },
      actionUrl: "/demo-dapp",
    });
    const values = taskFormValues(saved("contract_call", read.input.config));
    expect(values).toMatchObject({
      "config.signatures": "transfer(address,uint256)\napprove(address,uint256)",
      "config.minValue": "0.01",
      "config.transferToken": CONTRACT,
      "config.transferMinAmount": "1.5",
      "config.transferSymbol": "QUEST",
      "config.transferDecimals": "18",
      "config.actionUrl": "/demo-dapp",
      "config.contract": CONTRACT,
    });
    // Without an ABI, any signature or selector is taken as typed.
    expect(accepted("contract_call", { "config.contract": CONTRACT, "config.signatures": "0xDEADBEEF" }).input.config).toMatchObject({
      functions: [{ selector: "0xdeadbeef", signature: "0xdeadbeef" }],
      minValue: null,
      transfer: null,
      actionUrl: "",
    });
  });

  it("contract_call: refuses in words a line that does not parse, a function not in the ABI, a bad ABI, bad amounts", () => {
    const base = { "config.contract": CONTRACT, "config.abi": QUEST_ABI };
    expect(refusals("contract_call", { ...base, "config.signatures": "swap(uint256" }).errors["config.signatures"]).toMatch(/is not a function signature/);
    expect(refusals("contract_call", { ...base, "config.signatures": "mint(uint256)" }).errors["config.signatures"]).toBe(
      "mint(uint256) is not a function of the pasted ABI",
    );
    expect(refusals("contract_call", { ...base, "config.signatures": "0x12345678" }).errors["config.signatures"]).toBe(
      "0x12345678 is not a function of the pasted ABI",
    );
    expect(refusals("contract_call", { ...base, "config.signatures": "0x1234" }).errors["config.signatures"]).toMatch(/is not a selector/);
    expect(refusals("contract_call", { ...base, "config.signatures": "" }).errors["config.signatures"]).toMatch(/Name at least one function/);
    expect(refusals("contract_call", { ...base, "config.abi": "not json", "config.signatures": "transfer(address,uint256)" }).errors["config.abi"]).toMatch(
      /not a JSON ABI/,
    );
    const amounts = refusals("contract_call", {
      ...base,
      "config.signatures": "transfer(address,uint256)",
      "config.minValue": "lots",
      "config.transferMinAmount": "3",
      "config.contract": "0x123",
    });
    expect(amounts.errors).toMatchObject({
      "config.minValue": "Enter an amount as a number, like 0.01",
      "config.transferToken": "Enter the token's address, or leave the amount empty",
      "config.contract": "Enter the contract's address: 0x and 40 hexadecimal characters",
    });
    // What was typed stays.
    expect(amounts.values["config.minValue"]).toBe("lots");
    expect(
      refusals("contract_call", { ...base, "config.signatures": "transfer(address,uint256)", "config.transferToken": "0xabc", "config.transferMinAmount": "1" })
        .errors,
    ).toMatchObject({
      "config.transferToken": "Enter the token's address: 0x and 40 hexadecimal characters",
    });
    expect(
      refusals("contract_call", { ...base, "config.signatures": "transfer(address,uint256)", "config.actionUrl": "javascript:alert(1)" }).errors[
        "config.actionUrl"
      ],
    ).toMatch(/https:\/\//);
  });

  it("event_emitted: parses the event, names its indexed address arguments, and takes a numeric minimum in raw units", () => {
    const read = accepted("event_emitted", {
      "config.contract": CONTRACT,
      "config.event": `event ${TRANSFER_EVENT};`,
      "config.memberArg": "to",
      "config.minArgName": "value",
      "config.minArgMin": "1,000",
    });
    expect(read.input.config).toEqual({
      chainId: LOCAL_CHAIN_ID,
      contract: CONTRACT,
      event: TRANSFER_EVENT,
      memberArg: "to",
      minArg: { name: "value", min: "1000" },
      actionUrl: "",
    });
    expect(taskFormValues(saved("event_emitted", read.input.config))).toMatchObject({
      "config.event": TRANSFER_EVENT,
      "config.memberArg": "to",
      "config.minArgName": "value",
      "config.minArgMin": "1000",
    });

    const base = { "config.contract": CONTRACT, "config.memberArg": "to" };
    expect(refusals("event_emitted", { ...base, "config.event": "Transfer(address indexed from" }).errors["config.event"]).toMatch(
      /does not parse as an event/,
    );
    expect(refusals("event_emitted", { ...base, "config.event": "Transfer(address indexed, address indexed, uint256)" }).errors["config.event"]).toMatch(
      /Name every argument/,
    );
    expect(refusals("event_emitted", { ...base, "config.event": TRANSFER_EVENT, "config.memberArg": "value" }).errors["config.memberArg"]).toBe(
      "value is not an indexed address argument of Transfer: choose from or to",
    );
    expect(refusals("event_emitted", { ...base, "config.event": "Ping(uint256 n)" }).errors["config.memberArg"]).toMatch(/has no indexed address argument/);
    expect(refusals("event_emitted", { ...base, "config.event": TRANSFER_EVENT, "config.minArgName": "from", "config.minArgMin": "1.5" }).errors).toMatchObject(
      {
        "config.minArgName": "from is not a numeric argument of Transfer: choose value",
        "config.minArgMin": "Enter the least value as a whole number, in the argument's raw units (no decimals)",
      },
    );
  });

  it("nft_hold, wallet_activity and hold_token at a block: read, refused in words, and shown again on edit", () => {
    const nft = accepted("nft_hold", {
      "config.contract": CONTRACT,
      "config.standard": "erc1155",
      "config.tokenIds": "1, 2 3",
      "config.minCount": "2",
      "config.name": "Explorers",
      "config.recheckBeforeRewards": "on",
      "config.actionUrl": "https://example.com/mint",
    });
    expect(nft.input.config).toEqual({
      chainId: LOCAL_CHAIN_ID,
      contract: CONTRACT,
      standard: "erc1155",
      tokenIds: ["1", "2", "3"],
      minCount: 2,
      name: "Explorers",
      recheckBeforeRewards: true,
      actionUrl: "https://example.com/mint",
    });
    expect(taskFormValues(saved("nft_hold", nft.input.config))).toMatchObject({
      "config.tokenIds": "1, 2, 3",
      "config.standard": "erc1155",
      "config.minCount": "2",
      "config.name": "Explorers",
      "config.recheckBeforeRewards": "on",
      "config.actionUrl": "https://example.com/mint",
    });
    expect(refusals("nft_hold", { "config.contract": CONTRACT, "config.standard": "erc1155", "config.tokenIds": "" }).errors["config.tokenIds"]).toMatch(
      /name the ids/,
    );
    expect(refusals("nft_hold", { "config.contract": CONTRACT, "config.standard": "erc721", "config.tokenIds": "1, x" }).errors["config.tokenIds"]).toBe(
      "Token ids are whole numbers",
    );
    expect(refusals("nft_hold", { "config.contract": CONTRACT, "config.standard": "erc721", "config.minCount": "0" }).errors["config.minCount"]).toBe(
      "At least 1",
    );
    expect(refusals("nft_hold", { "config.contract": CONTRACT, "config.standard": "erc721", "config.chainId": "1" }).errors["config.chainId"]).toMatch(
      /no node/,
    );

    const activity = accepted("wallet_activity", { "config.minTxCount": "", "config.minAgeDays": "30" });
    expect(activity.input.config).toEqual({ chainId: LOCAL_CHAIN_ID, minTxCount: null, minAgeDays: 30 });
    expect(taskFormValues(saved("wallet_activity", activity.input.config))).toMatchObject({ "config.minTxCount": "", "config.minAgeDays": "30" });
    expect(refusals("wallet_activity", { "config.minTxCount": "", "config.minAgeDays": "" }).errors["config.minTxCount"]).toMatch(
      /number of transactions, an age, or both/,
    );
    expect(refusals("wallet_activity", { "config.minTxCount": "ten" }).errors["config.minTxCount"]).toMatch(/whole number of transactions/);

    const hold = accepted("hold_token", { "config.tokenAddress": CONTRACT, "config.minBalance": "1", "config.snapshotBlock": "120" });
    expect(hold.input.config).toMatchObject({ snapshotBlock: 120, recheckBeforeRewards: false });
    expect(taskFormValues(saved("hold_token", hold.input.config))).toMatchObject({ "config.snapshotBlock": "120", "config.recheckBeforeRewards": "" });
    expect(refusals("hold_token", { "config.minBalance": "1", "config.snapshotBlock": "-4" }).errors["config.snapshotBlock"]).toBe(
      "A block number is 0 or more",
    );
    expect(refusals("hold_token", { "config.minBalance": "1", "config.snapshotBlock": "soon" }).errors["config.snapshotBlock"]).toMatch(/Enter a block number/);
  });
});

describe("what the form asks of the chain and the database before saving", () => {
  let chain: LocalChain;
  let database: Database;
  const T = new Date("2030-01-10T12:00:00Z");
  const at = (days: number) => new Date(T.getTime() + days * 86_400_000);
  let quest: string;

  beforeAll(async () => {
    [chain, database] = await Promise.all([startLocalChain(), createTestDatabase()]);
    quest = (await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") })).addresses.QuestToken;
    await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
    await database.db.insert(campaign).values({ id: "c", projectId: "p", slug: "c", name: "C", startsAt: at(0), endsAt: at(10), publishedAt: at(-1) });
    await database.db.insert(airdrop).values({
      id: "a",
      projectId: "p",
      slug: "a",
      name: "A",
      asset: "QUEST:31337",
      rule: "pro_rata",
      total: 100n,
      startsAt: at(0),
      endsAt: at(5),
      claimDeadline: at(30),
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([chain?.stop(), database?.close()]);
  });

  const input = (type: string, fields: Record<string, string>) => accepted(type, fields).input;

  it("refuses a contract or a token without code on the chain, and takes one with code", async () => {
    const chains = localRegistry({ url: chain.url });
    const empty = DEV_ADDRESSES[3]!;
    const call = input("contract_call", {
      "config.contract": empty,
      "config.signatures": "transfer(address,uint256)",
      "config.transferToken": empty,
      "config.transferMinAmount": "1",
    });
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: call })).toEqual({
      "config.contract": `No contract is deployed at ${empty} on Questline Local`,
      "config.transferToken": `No contract is deployed at ${empty} on Questline Local`,
    });
    const good = input("event_emitted", { "config.contract": quest, "config.event": TRANSFER_EVENT, "config.memberArg": "to" });
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: good })).toEqual({});
    const hold = input("hold_token", { "config.tokenAddress": empty, "config.minBalance": "1" });
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: hold })).toEqual({
      "config.tokenAddress": `No contract is deployed at ${empty} on Questline Local`,
    });
    // A native-coin holding names no contract: nothing to ask.
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: input("hold_token", { "config.minBalance": "1" }) })).toEqual({});
  });

  it("says when the chain cannot be reached, rather than guessing", async () => {
    const down = localRegistry({ url: "http://127.0.0.1:9" });
    const nft = input("nft_hold", { "config.contract": quest, "config.standard": "erc721" });
    expect(await taskFormRefusals({ db: database.db, chains: down, projectId: "p", input: nft })).toEqual({
      "config.contract": "The Questline Local node could not be reached to check the contract. Try again.",
    });
  });

  it("keeps a task of a campaign or an airdrop inside its window", async () => {
    const chains = localRegistry({ url: "http://127.0.0.1:9" });
    const visit = (fields: Record<string, string>) => input("visit_link", { verification: "none", "config.url": "https://example.com", ...fields });
    const outside = visit({ campaignId: "c", startsAt: "2030-01-09T12:00", endsAt: "2030-01-21T12:00" });
    const message = "The campaign runs from 10 Jan 2030, 12:00 UTC to 20 Jan 2030, 12:00 UTC: keep the task inside it";
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: outside })).toEqual({ startsAt: message, endsAt: message });
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: visit({ campaignId: "c", startsAt: "2030-01-11T12:00" }) })).toEqual({});
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: visit({ campaignId: "", startsAt: "2030-01-09T12:00" }) })).toEqual({});
    const inDrop = { ...visit({ endsAt: "2030-01-16T12:00" }), campaignId: null, airdropId: "a" };
    expect(await taskFormRefusals({ db: database.db, chains, projectId: "p", input: inDrop })).toEqual({
      endsAt: "The airdrop runs from 10 Jan 2030, 12:00 UTC to 15 Jan 2030, 12:00 UTC: keep the task inside it",
    });
  });
});
