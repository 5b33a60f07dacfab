import { parseAbiItem, toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction } from "viem";
import { describe, expect, it } from "vitest";
import {
  DEMO_COLLECTION_MINT_FUNCTION,
  DEMO_COLLECTION_MINT_SELECTOR,
  DEMO_ITEMS_MINT_FUNCTION,
  DEMO_ITEMS_MINT_SELECTOR,
  DEMO_SWAP_EVENT,
  DEMO_SWAP_EVENT_TOPIC,
  DEMO_SWAP_FUNCTION,
  DEMO_SWAP_SELECTOR,
  ERC1155_TRANSFER_SINGLE_EVENT,
  ERC721_TRANSFER_EVENT,
} from "./demo-signatures.ts";
import { demoCollectionAbi } from "./generated/demo-collection.ts";
import { demoItemsAbi } from "./generated/demo-items.ts";
import { demoSwapAbi } from "./generated/demo-swap.ts";

/** A compiled function as `name(type,…)`. */
const functionIn = (abi: readonly unknown[], name: string) => {
  const item = (abi as AbiFunction[]).find((candidate) => candidate.type === "function" && candidate.name === name)!;
  return `${item.name}(${item.inputs.map((input) => input.type).join(",")})`;
};
const eventIn = (abi: readonly unknown[], name: string) => (abi as AbiEvent[]).find((item) => item.type === "event" && item.name === name)!;

describe("the demo contracts' signatures", () => {
  it("are the compiled contracts' functions, with their selectors", () => {
    expect(functionIn(demoSwapAbi, "swapExactTokensForTokens")).toBe(DEMO_SWAP_FUNCTION);
    expect(functionIn(demoCollectionAbi, "mint")).toBe(DEMO_COLLECTION_MINT_FUNCTION);
    expect(functionIn(demoItemsAbi, "mint")).toBe(DEMO_ITEMS_MINT_FUNCTION);
    expect(toFunctionSelector(DEMO_SWAP_FUNCTION)).toBe(DEMO_SWAP_SELECTOR);
    expect(toFunctionSelector(DEMO_COLLECTION_MINT_FUNCTION)).toBe(DEMO_COLLECTION_MINT_SELECTOR);
    expect(toFunctionSelector(DEMO_ITEMS_MINT_FUNCTION)).toBe(DEMO_ITEMS_MINT_SELECTOR);
  });

  it("are the compiled contracts' events, indexed arguments included, with the swap's topic", () => {
    for (const [signature, abi, name] of [
      [DEMO_SWAP_EVENT, demoSwapAbi, "Swap"],
      [ERC721_TRANSFER_EVENT, demoCollectionAbi, "Transfer"],
      [ERC1155_TRANSFER_SINGLE_EVENT, demoItemsAbi, "TransferSingle"],
    ] as const) {
      const parsed = parseAbiItem(`event ${signature}`) as AbiEvent;
      const compiled = eventIn(abi, name);
      const shape = (event: AbiEvent) => event.inputs.map((input) => [input.name, input.type, input.indexed ?? false]);
      expect(shape(parsed)).toEqual(shape(compiled));
    }
    expect(toEventSelector(`event ${DEMO_SWAP_EVENT}`)).toBe(DEMO_SWAP_EVENT_TOPIC);
  });
});
