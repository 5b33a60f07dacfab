// Turns the executed source ranges a coverage run collected into line, statement, branch and
// function coverage of our own contracts (contracts/*.sol; OpenZeppelin is not counted).
//
// - statement: covered when an executed instruction maps inside it (an `if` counts by its
//   condition, a `try` by its call);
// - line: a line that starts a statement, covered when one of its statements is;
// - branch: each `if`, `?:`, `&&`, `||` and `require` is two branches, one per way its
//   conditional jump went (taken, not taken); a `try` is its success and catch clauses;
// - function: a function or modifier whose body ran.

import type { CompileOutput } from "../compile.ts";

type AstNode = { nodeType: string; src: string; [key: string]: unknown };
type Range = { start: number; length: number };

export type FileCoverage = {
  file: string;
  lines: { total: number; covered: number; missed: number[] };
  statements: { total: number; covered: number };
  branches: { total: number; covered: number; missed: string[] };
  functions: { total: number; covered: number; missed: string[] };
};

const STATEMENTS = new Set([
  "ExpressionStatement",
  "VariableDeclarationStatement",
  "Return",
  "EmitStatement",
  "RevertStatement",
  "IfStatement",
  "TryStatement",
  "ForStatement",
  "WhileStatement",
  "DoWhileStatement",
  "Break",
  "Continue",
  "PlaceholderStatement",
  "InlineAssembly",
]);

const rangeOf = (src: string): Range => {
  const [start, length] = src.split(":").map(Number);
  return { start: start!, length: length! };
};

function walk(node: unknown, visit: (node: AstNode) => void) {
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
  if (!node || typeof node !== "object") return;
  if (typeof (node as AstNode).nodeType === "string") visit(node as AstNode);
  for (const value of Object.values(node)) if (value && typeof value === "object") walk(value, visit);
}

export function coverageReport(build: CompileOutput, hitKeys: Iterable<string>): FileCoverage[] {
  const hitsByFile = new Map<number, Range[]>();
  const jumps = new Set<string>();
  for (const key of hitKeys) {
    const [file, start, length, way] = key.split(":");
    if (way) jumps.add(key);
    else {
      const list = hitsByFile.get(Number(file)) ?? [];
      list.push({ start: Number(start), length: Number(length) });
      hitsByFile.set(Number(file), list);
    }
  }

  const reports: FileCoverage[] = [];
  for (const [file, source] of Object.entries(build.sources)) {
    if (!/^contracts\/[^/]+\.sol$/.test(file)) continue;
    const hits = hitsByFile.get(source.id) ?? [];
    const ran = (range: Range) => hits.some((hit) => hit.start >= range.start && hit.start + hit.length <= range.start + range.length);
    const lineOf = (offset: number) => source.content.slice(0, offset).split("\n").length;
    const where = (node: AstNode) => `line ${lineOf(rangeOf(node.src).start)}`;

    const lines = new Map<number, boolean>();
    let statements = 0;
    let statementsCovered = 0;
    const branches: { label: string; covered: boolean }[] = [];
    const functions: { label: string; covered: boolean }[] = [];
    const jumped = (node: AstNode, way: "J" | "F") => {
      const { start, length } = rangeOf(node.src);
      return jumps.has(`${source.id}:${start}:${length}:${way}`);
    };

    walk(source.ast, (node) => {
      if (STATEMENTS.has(node.nodeType)) {
        const probe = node.nodeType === "IfStatement" ? (node.condition as AstNode) : node.nodeType === "TryStatement" ? (node.externalCall as AstNode) : node;
        const covered = ran(rangeOf(probe.src));
        statements++;
        if (covered) statementsCovered++;
        const line = lineOf(rangeOf(node.src).start);
        lines.set(line, (lines.get(line) ?? false) || covered);
      }
      const isRequire = node.nodeType === "FunctionCall" && ["require", "assert"].includes(((node.expression as AstNode & { name?: string }) ?? {}).name ?? "");
      const isLogical = node.nodeType === "BinaryOperation" && (node.operator === "&&" || node.operator === "||");
      if (node.nodeType === "IfStatement" || node.nodeType === "Conditional" || isLogical || isRequire) {
        const kind = isLogical ? `'${node.operator as string}'` : isRequire ? "require" : node.nodeType === "Conditional" ? "'?:'" : "if";
        branches.push({ label: `${kind} at ${where(node)}, jump taken`, covered: jumped(node, "J") });
        branches.push({ label: `${kind} at ${where(node)}, jump not taken`, covered: jumped(node, "F") });
      }
      if (node.nodeType === "TryStatement") {
        // The first clause is the success clause; an empty block has no code and never counts as run.
        (node.clauses as AstNode[]).forEach((clause, i) => {
          const name = i === 0 ? "success" : `catch${clause.errorName ? ` ${clause.errorName as string}` : ""}`;
          branches.push({ label: `try at ${where(node)}, ${name} clause`, covered: ran(rangeOf((clause.block as AstNode).src)) });
        });
      }
      if ((node.nodeType === "FunctionDefinition" || node.nodeType === "ModifierDefinition") && node.body) {
        const name = (node.name as string) || (node.kind as string);
        functions.push({ label: `${name} (${where(node)})`, covered: ran(rangeOf((node.body as AstNode).src)) });
      }
    });

    reports.push({
      file,
      lines: {
        total: lines.size,
        covered: [...lines.values()].filter(Boolean).length,
        missed: [...lines]
          .filter(([, covered]) => !covered)
          .map(([line]) => line)
          .sort((a, b) => a - b),
      },
      statements: { total: statements, covered: statementsCovered },
      branches: { total: branches.length, covered: branches.filter((b) => b.covered).length, missed: branches.filter((b) => !b.covered).map((b) => b.label) },
      functions: {
        total: functions.length,
        covered: functions.filter((f) => f.covered).length,
        missed: functions.filter((f) => !f.covered).map((f) => f.label),
      },
    });
  }
  return reports.sort((a, b) => a.file.localeCompare(b.file));
}
