import { parseUnits } from "viem";
import { formText } from "~/lib/forms";
import { invalidFields, ok, type FieldErrors, type FieldFailure, type Ok } from "~/lib/result";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { gateRefusals } from "./eligibility.server";
import { emptyRule, MAX_GATE_RULES, RULE_FIELDS, type GateValues, type RuleValues } from "./gate-values";
import { GATE_COMBINES, gateRuleSchema, type Gate, type GateCombine } from "./trust-types";

/**
 * The gate editor's fields (gate-fields.tsx) read into a gate: `gate.combine` ("" for anyone) and
 * rows `gate.rules.<i>.<field>`; a row with no kind is an empty row and is skipped. Each row is
 * parsed with `gateRuleSchema` (min above max refused there), then `gateRefusals` asks the chains
 * whether each holding's contract exists. Errors are by field, at the row's posted index, so the
 * form shows them where they were typed. Nothing is saved unless every rule can hold.
 */
export type GateForm = { values: GateValues; gate: Ok<{ gate: Gate | null }> | FieldFailure };

const whole = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : value.trim() === "" ? null : Number.NaN);

/** The rows the form posted, in index order (indices may have gaps where rows were removed). */
function postedRows(formData: FormData): { index: number; values: RuleValues }[] {
  const indices = new Set<number>();
  for (const key of formData.keys()) {
    const match = /^gate\.rules\.(\d{1,3})\./.exec(key);
    if (match) indices.add(Number(match[1]));
  }
  return [...indices]
    .sort((a, b) => a - b)
    .map((index) => {
      const values = emptyRule();
      for (const field of RULE_FIELDS) {
        if (formData.has(`gate.rules.${index}.${field}`)) (values as Record<string, string>)[field] = formText(formData, `gate.rules.${index}.${field}`).trim();
      }
      return { index, values };
    });
}

/** One row as the schema's input, or the field that cannot be read. */
function ruleInput(row: RuleValues): { input: Record<string, unknown> } | { field: string; message: string } {
  switch (row.kind) {
    case "holds_token": {
      const token = row.token === "" ? null : row.token;
      const decimals = token ? whole(row.decimals || "18") : 18;
      if (decimals === null || Number.isNaN(decimals) || decimals > 36) return { field: "decimals", message: "Decimals are a whole number from 0 to 36" };
      const amount = row.amount.replace(/,/g, "");
      if (!/^\d+(\.\d+)?$/.test(amount)) return { field: "amount", message: "Enter the least amount to hold, like 100 or 0.5" };
      if ((amount.split(".")[1] ?? "").replace(/0+$/, "").length > decimals) return { field: "amount", message: `At most ${decimals} decimal places` };
      const units = parseUnits(amount, decimals);
      if (units <= 0n) return { field: "amount", message: "Enter an amount above 0" };
      return { input: { kind: row.kind, chainId: whole(row.chainId), token, minBalance: units.toString(), symbol: row.symbol, decimals } };
    }
    case "holds_nft":
      return {
        input: {
          kind: row.kind,
          chainId: whole(row.chainId),
          contract: row.contract,
          standard: row.standard,
          tokenIds: row.tokenIds.split(/[\s,]+/).filter(Boolean),
          minCount: whole(row.minCount || "1"),
          name: row.name,
        },
      };
    case "linked_account":
      return { input: { kind: row.kind, account: row.account } };
    default:
      return { input: { kind: row.kind, min: whole(row.min), max: whole(row.max) } };
  }
}

/** The gate the form describes, or its field errors; `chains` checks each holding's chain and contract. */
export async function parseGateForm(formData: FormData, chains: OnchainChains): Promise<GateForm> {
  const combine = formText(formData, "gate.combine");
  const posted = postedRows(formData);
  const values: GateValues = {
    combine: (GATE_COMBINES as readonly string[]).includes(combine) ? (combine as GateCombine) : "",
    rules: posted.map((r) => r.values),
  };
  const rows = posted.filter((r) => r.values.kind !== "");
  const refuse = (errors: FieldErrors): GateForm => ({ values, gate: invalidFields(errors) });

  if (combine === "") {
    return rows.length === 0
      ? { values, gate: ok({ gate: null }) }
      : refuse({ "gate.combine": "Choose how the rules combine, or remove the rules to let anyone take part" });
  }
  if (values.combine === "") return refuse({ "gate.combine": "Choose who may take part" });
  if (rows.length === 0) return refuse({ "gate.combine": "Add at least one rule, or let anyone take part" });
  if (rows.length > MAX_GATE_RULES) return refuse({ "gate.combine": `A gate holds at most ${MAX_GATE_RULES} rules: remove ${rows.length - MAX_GATE_RULES}` });

  const errors: FieldErrors = {};
  const rules: Gate["rules"] = [];
  for (const { index, values: row } of rows) {
    const read = ruleInput(row);
    if ("field" in read) {
      errors[`gate.rules.${index}.${read.field}`] = read.message;
      continue;
    }
    const parsed = gateRuleSchema.safeParse(read.input);
    if (parsed.success) {
      rules.push(parsed.data);
      continue;
    }
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "minBalance" ? "amount" : String(issue.path[0] ?? "kind");
      errors[`gate.rules.${index}.${field}`] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return refuse(errors);

  const gate: Gate = { combine: values.combine, rules };
  // The refusals name rules by their place in the gate; the form's rows by their posted index.
  const refusals = await gateRefusals(gate, chains);
  for (const [key, message] of Object.entries(refusals)) {
    const [, , i, field] = key.split(".");
    errors[`gate.rules.${rows[Number(i)]!.index}.${field}`] = message;
  }
  return Object.keys(errors).length > 0 ? refuse(errors) : { values, gate: ok({ gate }) };
}

/** The networks a holding rule may name: those this server has a node for. */
export const gateNetworks = (chains: Pick<ChainRegistry, "list">) => chains.list.map((chain) => ({ id: chain.id, name: chain.name }));

/** The two parses in one: the campaign's or airdrop's fields and its gate, with their errors together. */
export function withGate<T extends object>(form: Ok<T> | FieldFailure, gate: GateForm["gate"]): Ok<T & { gate: Gate | null }> | FieldFailure {
  if (form.ok && gate.ok) return { ...form, gate: gate.gate };
  return invalidFields({ ...(form.ok ? {} : form.errors), ...(gate.ok ? {} : gate.errors) });
}
