// Coverage of the contracts, measured on a real chain: every call and transaction a test sends
// through `coverageTransport` is traced again with anvil's `debug_traceCall` /
// `debug_traceTransaction` (struct logs; viem fills and estimates every transaction first, so reverts are seen too); each executed program counter is mapped back to a source
// range through the unoptimized build's source maps, and each conditional jump records which way
// it went. `scripts/contracts-coverage.ts` turns the ranges into line, branch and function figures.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Hex, Transport } from "viem";
import type { CompileOutput, ContractName } from "../compile.ts";
import { JUMPI, pcSourceRanges, type SourceRange } from "./source-map.ts";

type StructLog = { pc: number; op: string; depth: number; stack?: Hex[] };
type Code = { name: ContractName; kind: "creation" | "runtime" };
type RequestFn = (args: { method: string; params?: unknown }) => Promise<unknown>;

export const COVERAGE_BUILD_FILE = "build.json";

/** The directory coverage runs write to, or null outside `npm run coverage:contracts`. */
export const coverageDir = (): string | null => process.env.CONTRACTS_COVERAGE_DIR || null;

export function readCoverageBuild(dir: string): CompileOutput {
  return JSON.parse(readFileSync(path.join(dir, COVERAGE_BUILD_FILE), "utf8")) as CompileOutput;
}

export class CoverageCollector {
  /** `file:start:length` of every executed instruction, and `…:J` / `…:F` for conditional jumps taken / not taken. */
  readonly hits = new Set<string>();
  private readonly maps = new Map<string, Map<number, SourceRange & { op: number }>>();
  private readonly codeAt = new Map<string, Code>();

  private readonly build: CompileOutput;

  constructor(build: CompileOutput) {
    this.build = build;
  }

  private map({ name, kind }: Code) {
    const key = `${name}:${kind}`;
    let map = this.maps.get(key);
    if (!map) {
      const contract = this.build.contracts[name];
      map = kind === "creation" ? pcSourceRanges(contract.bytecode, contract.sourceMap) : pcSourceRanges(contract.deployedBytecode, contract.deployedSourceMap);
      this.maps.set(key, map);
    }
    return map;
  }

  /** Which of our contracts some creation input (bytecode + constructor arguments) deploys. */
  private creationOf(input: string | undefined): Code | null {
    if (!input) return null;
    for (const [name, contract] of Object.entries(this.build.contracts)) {
      if (input.toLowerCase().startsWith(contract.bytecode.toLowerCase())) return { name: name as ContractName, kind: "creation" };
    }
    return null;
  }

  private record(logs: StructLog[], top: Code | null) {
    const frames: (Code | null)[] = [];
    let pendingTarget: string | null = null;
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i]!;
      if (frames.length < log.depth) frames.push(log.depth === 1 ? top : pendingTarget ? (this.codeAt.get(pendingTarget) ?? null) : null);
      frames.length = log.depth;
      pendingTarget = null;
      const code = frames[log.depth - 1];
      if (/^(CALL|CALLCODE|DELEGATECALL|STATICCALL)$/.test(log.op) && log.stack) {
        const target = log.stack[log.stack.length - 2];
        if (target) pendingTarget = `0x${BigInt(target).toString(16).padStart(40, "0")}`;
      }
      if (!code) continue;
      const range = this.map(code).get(log.pc);
      if (!range || range.file < 0) continue;
      const key = `${range.file}:${range.start}:${range.length}`;
      this.hits.add(key);
      if (range.op === JUMPI) {
        const next = logs[i + 1];
        if (next && next.depth === log.depth) this.hits.add(`${key}:${next.pc === log.pc + 1 ? "F" : "J"}`);
      }
    }
  }

  private topOf(tx: { to?: string | null; data?: string; input?: string }): Code | null {
    if (tx.to) return this.codeAt.get(tx.to.toLowerCase()) ?? null;
    return this.creationOf(tx.data ?? tx.input);
  }

  /** Traces a call or gas estimate with the same arguments, before it is sent. */
  async traceCall(request: RequestFn, params: unknown[]) {
    const [tx, block] = params as [{ to?: string; data?: string; input?: string }, string | undefined];
    const top = this.topOf(tx);
    if (!top) return;
    const trace = (await request({
      method: "debug_traceCall",
      params: [tx, typeof block === "string" ? block : "latest", { disableStorage: true, disableMemory: true }],
    })) as { structLogs: StructLog[] };
    this.record(trace.structLogs, top);
  }

  /** Traces a mined transaction; a deployment of ours registers the new address. */
  async traceTransaction(request: RequestFn, hash: Hex) {
    const tx = (await request({ method: "eth_getTransactionByHash", params: [hash] })) as { to: string | null; input: string };
    const top = this.topOf(tx);
    if (!top) return;
    const trace = (await request({
      method: "debug_traceTransaction",
      params: [hash, { disableStorage: true, disableMemory: true }],
    })) as { structLogs: StructLog[] };
    this.record(trace.structLogs, top);
    if (!tx.to) {
      const receipt = await receiptOf(request, hash);
      if (receipt.contractAddress) this.codeAt.set(receipt.contractAddress.toLowerCase(), { name: top.name, kind: "runtime" });
    }
  }

  /** Writes this test file's hits beside the other files' ones. */
  save(dir: string, label: string) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `hits-${label}-${process.pid}-${Date.now()}.json`), JSON.stringify([...this.hits]));
  }
}

/** A transaction's receipt, asked again while the node has not stored it yet (a busy anvil answers null for a moment after mining). */
async function receiptOf(request: RequestFn, hash: Hex): Promise<{ contractAddress: string | null }> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const receipt = (await request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string | null } | null;
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No receipt for ${hash} after 5 s: coverage needs the chain to mine each transaction`);
}

/** Wraps a transport so that every call, estimate and transaction is also traced into `collector`. */
export function coverageTransport(base: Transport, collector: CoverageCollector): Transport {
  return (options) => {
    const transport = base(options);
    const request = transport.request as unknown as RequestFn;
    return {
      ...transport,
      request: (async (args: { method: string; params?: unknown }) => {
        if (args.method === "eth_call" || args.method === "eth_estimateGas" || args.method === "eth_fillTransaction")
          await collector.traceCall(request, args.params as unknown[]);
        const result = await request(args);
        if (args.method === "eth_sendRawTransaction" || args.method === "eth_sendTransaction") await collector.traceTransaction(request, result as Hex);
        return result;
      }) as typeof transport.request,
    };
  };
}
