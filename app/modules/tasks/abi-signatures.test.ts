import { toFunctionSignature, type AbiFunction } from "viem";
import { describe, expect, it } from "vitest";
import { abiFunctionSignatures } from "./abi-signatures";

const router = [
  { type: "constructor", inputs: [{ name: "factory", type: "address" }] },
  {
    type: "function",
    name: "swapExactTokensForTokens",
    stateMutability: "nonpayable",
    inputs: [
      { name: "amountIn", type: "uint256" },
      { name: "amountOutMin", type: "uint256" },
      { name: "path", type: "address[]" },
      { name: "to", type: "address" },
      { name: "deadline", type: "uint256" },
    ],
    outputs: [{ name: "amounts", type: "uint256[]" }],
  },
  {
    type: "function",
    name: "multicall",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "data", type: "bytes" },
          {
            name: "inner",
            type: "tuple",
            components: [
              { name: "a", type: "uint8[2]" },
              { name: "b", type: "bool" },
            ],
          },
        ],
      },
      { name: "deadline", type: "uint256" },
    ],
    outputs: [],
  },
  { type: "function", name: "mint", stateMutability: "payable", inputs: [], outputs: [] },
  { type: "event", name: "Swap", inputs: [{ name: "sender", type: "address", indexed: true }] },
  { type: "function", name: "mint", stateMutability: "payable", inputs: [], outputs: [] },
] as const;

describe("abiFunctionSignatures", () => {
  it("lists each function once as its canonical signature, tuples expanded, as viem writes them", () => {
    const signatures = abiFunctionSignatures(JSON.stringify(router));
    expect(signatures).toEqual([
      "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)",
      "multicall((address,bytes,(uint8[2],bool))[],uint256)",
      "mint()",
    ]);
    const functions = router.filter((e) => e.type === "function") as unknown as AbiFunction[];
    expect(signatures).toEqual([...new Set(functions.map((f) => toFunctionSignature(f)))]);
  });

  it("reads an artifact's `abi` and refuses what is not a JSON ABI", () => {
    expect(abiFunctionSignatures(JSON.stringify({ abi: router.slice(3, 4) }))).toEqual(["mint()"]);
    expect(abiFunctionSignatures("transfer(address,uint256)")).toBeNull();
    expect(abiFunctionSignatures('{"a":1}')).toBeNull();
    expect(abiFunctionSignatures("[]")).toEqual([]);
    // A tuple without its components cannot be written out: it is left out.
    expect(abiFunctionSignatures('[{"type":"function","name":"f","inputs":[{"type":"tuple"}]}]')).toEqual([]);
  });
});
