import { describe, expect, it } from "vitest";
import { pcSourceRanges } from "./source-map.ts";

describe("pcSourceRanges", () => {
  it("skips PUSH data, inherits omitted fields and stops at the map's end", () => {
    // PUSH1 0x80, PUSH2 0x0102, JUMPI, then two bytes of appended data.
    const map = pcSourceRanges("0x6080610102575b00", "1:2:0;5::;:7:1");
    expect([...map.keys()]).toEqual([0, 2, 5]);
    expect(map.get(0)).toEqual({ start: 1, length: 2, file: 0, op: 0x60 });
    expect(map.get(2)).toEqual({ start: 5, length: 2, file: 0, op: 0x61 });
    expect(map.get(5)).toEqual({ start: 5, length: 7, file: 1, op: 0x57 });
  });

  it("keeps -1 for code that maps to no source", () => {
    expect(pcSourceRanges("0x00", "0:0:-1").get(0)).toEqual({ start: 0, length: 0, file: -1, op: 0 });
  });
});
