import { describe, expect, it } from "vitest";
import { contractsSourceHash as generatedHash } from "./generated/build-info.ts";
import { contractsSourceHash } from "./source-hash.ts";

describe("contracts/generated", () => {
  it("was generated from the current sources, compiler and settings (run `npm run compile:contracts`)", () => {
    expect(generatedHash).toBe(contractsSourceHash());
  });
});
