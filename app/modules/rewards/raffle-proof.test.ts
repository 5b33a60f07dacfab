// Property tests of the raffle proof: for random secrets, entrant lists, blocks and winner counts,
// an honestly built proof verifies, and each kind of tampering (the secret, an entrant, the
// entrants' order, the block hash, a winner) fails, with the failing check saying which. Pinned
// known answers hold the hashes to what members' own tools compute.

import fc from "fast-check";
import { toHex, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { drawRaffle } from "./draw-raffle";
import { commitmentOf, entrantListHash, raffleSeed, verifyFromSources, verifyRaffle, type RaffleProof } from "./raffle-proof";

/** The proof the server publishes once block `blockNumber` (with hash `blockHash`) is mined. */
function honestProof({ secret, ids, blockHash, winnersWanted }: { secret: Hex; ids: string[]; blockHash: Hex; winnersWanted: number }): RaffleProof {
  const entrantsHash = entrantListHash(ids);
  const seed = raffleSeed({ secret, blockHash, entrantsHash });
  return {
    poolId: "pool-1",
    winnersWanted,
    commitment: commitmentOf(secret),
    secret,
    entrants: ids.map((id) => ({ id, label: `Member ${id}` })),
    entrantsHash,
    chainId: 31337,
    blockNumber: "1234",
    blockHash,
    seed,
    winners: drawRaffle({ seed, entrants: ids, winners: winnersWanted }),
  };
}

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => toHex(bytes));
const entrantId = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).filter((id) => !id.includes("\n"));
const raffle = fc.record({
  secret: bytes32,
  ids: fc.uniqueArray(entrantId, { maxLength: 60 }),
  blockHash: bytes32,
  winnersWanted: fc.integer({ min: 1, max: 10 }),
});

const checkOf = (proof: RaffleProof, chainBlockHash: Hex | null, name: string) =>
  verifyRaffle(proof, chainBlockHash).checks.find((check) => check.name === name)!;

describe("a raffle proof", () => {
  it("verifies when built honestly, every check saying so", () => {
    fc.assert(
      fc.property(raffle, (drawn) => {
        const proof = honestProof(drawn);
        const verification = verifyRaffle(proof, drawn.blockHash);
        expect(verification.ok).toBe(true);
        expect(verification.checks.map((check) => check.name)).toEqual(["commitment", "entrants", "block", "seed", "winners"]);
        expect(checkOf(proof, drawn.blockHash, "commitment").words).toMatch(
          /^The revealed secret matches the commitment 0x[0-9a-f]{4}…[0-9a-f]{4} published before the draw\.$/,
        );
        expect(checkOf(proof, drawn.blockHash, "entrants").words).toContain(`${drawn.ids.length} entr`);
      }),
    );
  });

  it("says a single entrant and a single winner in the singular", () => {
    const blockHash = toHex(new Uint8Array(32).fill(7));
    const proof = honestProof({ secret: toHex(new Uint8Array(32).fill(1)), ids: ["ada"], blockHash, winnersWanted: 1 });
    expect(checkOf(proof, blockHash, "entrants").words).toMatch(/^The 1 entrant listed matches the entrant-list hash /);
    expect(checkOf(proof, blockHash, "winners").words).toBe("The 1 winner listed is the one the draw gives from the seed and the entrants.");
    const two = honestProof({ secret: toHex(new Uint8Array(32).fill(1)), ids: ["ada", "bob"], blockHash, winnersWanted: 2 });
    expect(checkOf(two, blockHash, "entrants").words).toMatch(/^The 2 entrants listed match the entrant-list hash /);
  });

  it("fails when the secret is not the committed one", () => {
    fc.assert(
      fc.property(raffle, bytes32, (drawn, other) => {
        fc.pre(other !== drawn.secret);
        const proof = { ...honestProof(drawn), secret: other };
        expect(verifyRaffle(proof, drawn.blockHash).ok).toBe(false);
        expect(checkOf(proof, drawn.blockHash, "commitment")).toMatchObject({
          ok: false,
          words: expect.stringMatching(/^The revealed secret does not match the commitment/),
        });
      }),
    );
  });

  it("fails when an entrant is changed", () => {
    fc.assert(
      fc.property(raffle, fc.nat(), entrantId, (drawn, at, stranger) => {
        fc.pre(drawn.ids.length > 0 && !drawn.ids.includes(stranger));
        const proof = honestProof(drawn);
        const entrants = proof.entrants.with(at % proof.entrants.length, { id: stranger, label: "Stranger" });
        expect(checkOf({ ...proof, entrants }, drawn.blockHash, "entrants")).toMatchObject({
          ok: false,
          words: expect.stringMatching(/(do|does) not match the entrant-list hash/),
        });
      }),
    );
  });

  it("fails when the entrants' order is changed", () => {
    fc.assert(
      fc.property(raffle, fc.nat(), fc.nat(), (drawn, a, b) => {
        const n = drawn.ids.length;
        fc.pre(n >= 2 && a % n !== b % n);
        const proof = honestProof(drawn);
        const entrants = proof.entrants.with(a % n, proof.entrants[b % n]!).with(b % n, proof.entrants[a % n]!);
        expect(checkOf({ ...proof, entrants }, drawn.blockHash, "entrants")).toMatchObject({ ok: false, words: expect.stringContaining("changed or moved") });
      }),
    );
  });

  it("fails when the block hash is not the chain's, in the proof or on the chain", () => {
    fc.assert(
      fc.property(raffle, bytes32, (drawn, other) => {
        fc.pre(other !== drawn.blockHash);
        const proof = honestProof(drawn);
        expect(checkOf(proof, other, "block")).toMatchObject({ ok: false, words: expect.stringContaining("is not the hash the chain reports for block 1234") });
        // A proof consistent in itself but built on another block: only the chain can tell.
        const moved = honestProof({ ...drawn, blockHash: other });
        expect(verifyRaffle(moved, drawn.blockHash).ok).toBe(false);
        expect(checkOf(moved, drawn.blockHash, "block").ok).toBe(false);
      }),
    );
  });

  it("fails when a winner is changed, naming the place", () => {
    fc.assert(
      fc.property(raffle, fc.nat(), (drawn, at) => {
        const proof = honestProof(drawn);
        fc.pre(proof.winners.length > 0);
        const place = at % proof.winners.length;
        const winners = proof.winners.with(place, `${proof.winners[place]}-forged`);
        expect(checkOf({ ...proof, winners }, drawn.blockHash, "winners")).toMatchObject({
          ok: false,
          words: expect.stringContaining(`winner ${place + 1} should be`),
        });
      }),
    );
  });

  it("says plainly when the block could not be read or the raffle is not drawn yet", () => {
    const proof = honestProof({ secret: `0x${"11".repeat(32)}`, ids: ["ann", "bob"], blockHash: `0x${"22".repeat(32)}`, winnersWanted: 1 });
    expect(checkOf(proof, null, "block")).toEqual({
      name: "block",
      ok: false,
      words: "The hash of block 1234 on chain 31337 could not be read from the chain.",
    });

    const pending = { ...proof, secret: null, blockHash: null, seed: null, winners: [] };
    const verification = verifyRaffle(pending, null);
    expect(verification.ok).toBe(false);
    expect(verification.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(["commitment", "block", "seed", "winners"]);
    for (const check of verification.checks.filter((check) => !check.ok)) expect(check.words).toContain("the raffle has not been drawn yet");
  });
});

describe("the proof's hashes", () => {
  it("are pinned to answers computed independently", () => {
    // keccak256 of no bytes, and of "ann\nbob\ncat" (checked with @noble/hashes' keccak_256).
    expect(entrantListHash([])).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(entrantListHash(["ann", "bob", "cat"])).toBe("0xf3f1c9fc6e565b6f8aa4b86730810cd25a36d33fffa6ec898b94247ae8f06ee2");
    // SHA-256 of 32 zero bytes, as `sha256sum` gives it.
    expect(commitmentOf(`0x${"00".repeat(32)}`)).toBe("0x66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
    expect(raffleSeed({ secret: `0x${"11".repeat(32)}`, blockHash: `0x${"22".repeat(32)}`, entrantsHash: entrantListHash(["ann", "bob", "cat"]) })).toBe(
      "0x6f5327f2d033db8b2cc61e02b6eb5bfe1e4c302e46bdd10276255e6846a908e9",
    );
  });
});

describe("verifying from the network", () => {
  const blockHash: Hex = `0x${"22".repeat(32)}`;
  const proof = honestProof({ secret: `0x${"11".repeat(32)}`, ids: ["ann", "bob", "cat"], blockHash, winnersWanted: 2 });

  it("reads the proof's block from its chain and checks the JSON as served", async () => {
    const asked: unknown[] = [];
    const verification = await verifyFromSources({
      proof: JSON.parse(JSON.stringify(proof)),
      readBlockHash: async (block) => {
        asked.push(block);
        return blockHash;
      },
    });
    expect(verification.ok).toBe(true);
    expect(asked).toEqual([{ chainId: 31337, blockNumber: 1234n }]);
  });

  it("refuses a malformed proof, saying what is wrong, without asking the chain", async () => {
    const readBlockHash = async () => {
      throw new Error("not to be asked");
    };
    const verification = await verifyFromSources({ proof: { ...proof, secret: "0x12", blockNumber: "12e3" }, readBlockHash });
    expect(verification.ok).toBe(false);
    expect(verification.checks).toHaveLength(1);
    expect(verification.checks[0]!.words).toMatch(/^The proof is not well-formed: secret must be 32 bytes .*; blockNumber must be a decimal number\.$/);
  });

  it("does not ask the chain for a raffle not drawn yet", async () => {
    const readBlockHash = async () => {
      throw new Error("not to be asked");
    };
    const verification = await verifyFromSources({ proof: { ...proof, secret: null, blockHash: null, seed: null, winners: [] }, readBlockHash });
    expect(verification.ok).toBe(false);
  });
});
