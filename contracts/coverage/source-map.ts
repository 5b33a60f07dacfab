/** One instruction's place in the sources: byte offset, length and source file id (-1: none). */
export type SourceRange = { start: number; length: number; file: number };

const PUSH1 = 0x60;
const PUSH32 = 0x7f;
export const JUMPI = 0x57;

/**
 * Maps each program counter of `bytecode` to the source range solc's compressed source map
 * gives its instruction (the map has one entry per instruction; PUSH data is skipped). Bytes
 * past the last entry (the runtime code and metadata appended to creation code) map to nothing.
 */
export function pcSourceRanges(bytecode: string, sourceMap: string): Map<number, SourceRange & { op: number }> {
  const code = Buffer.from(bytecode.replace(/^0x/, ""), "hex");
  const entries = sourceMap.split(";");
  const byPc = new Map<number, SourceRange & { op: number }>();
  let start = 0;
  let length = 0;
  let file = -1;
  let pc = 0;
  for (const entry of entries) {
    if (pc >= code.length) break;
    const [s, l, f] = entry.split(":");
    if (s) start = Number(s);
    if (l) length = Number(l);
    if (f) file = Number(f);
    const op = code[pc]!;
    byPc.set(pc, { start, length, file, op });
    pc += op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 2 : 1;
  }
  return byPc;
}
