import { Plus, Trash2 } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { NetworkField } from "~/components/tasks/onchain-config-fields";
import { ACCOUNT_WORDS } from "~/modules/trust/gate-words";
import { emptyRule, MAX_GATE_RULES, RANGED_KINDS, RULE_KIND_LABELS, type GateValues, type RuleValues } from "~/modules/trust/gate-values";
import { LINKABLE_ACCOUNTS, type GateRuleKind } from "~/modules/trust/trust-types";

type Network = { id: number; name: string };
const subscribeNothing = () => () => {};
type Errors = Record<string, string>;

const COMBINE_OPTIONS = [
  ["", "Anyone"],
  ["all", "Members who meet every rule"],
  ["any", "Members who meet at least one rule"],
  ["none", "Members who meet none of the rules"],
] as const;

/**
 * Who may take part (an eligibility gate, issue #38): how the rules combine, and up to 10 rules,
 * posted as `gate.combine` and `gate.rules.<i>.<field>` (parsed by gate-form.server.ts). The page
 * renders the saved rules and one empty row; without JavaScript a rule is added per save (choose
 * its kind, save, and its fields appear), with it rows are added and removed in place.
 */
export function GateFields({ defaults, errors, networks, what }: { defaults: GateValues; errors: Errors; networks: Network[]; what: string }) {
  const [rows, setRows] = useState(() => {
    const saved = defaults.rules.map((values, key) => ({ key, values }));
    return saved.length < MAX_GATE_RULES && saved.at(-1)?.values.kind !== "" ? [...saved, { key: saved.length, values: emptyRule() }] : saved;
  });
  const row = (current: { key: number }[], values: RuleValues) => ({ key: Math.max(-1, ...current.map((r) => r.key)) + 1, values });
  const [combine, setCombine] = useState(defaults.combine);
  // Rules hide for "Anyone" only once the page runs: without JavaScript they stay, to be filled in.
  const hydrated = useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
  const chosen = rows.filter((r) => r.values.kind !== "").length;

  const setKind = (key: number, kind: RuleValues["kind"]) =>
    setRows((current) => {
      const updated = current.map((r) => (r.key === key ? { key, values: { ...emptyRule(kind) } } : r));
      const last = updated.at(-1);
      return last && last.values.kind !== "" && updated.length < MAX_GATE_RULES ? [...updated, row(updated, emptyRule())] : updated;
    });
  const remove = (key: number) =>
    setRows((current) => {
      const kept = current.filter((r) => r.key !== key);
      return kept.some((r) => r.values.kind === "") ? kept : [...kept, row(kept, emptyRule())];
    });

  return (
    <fieldset className="grid min-w-0 gap-4 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Who may take part</legend>
      <Field
        id="gate.combine"
        label={`Who may take part in this ${what}`}
        hint="Members see each rule and whether they meet it before they start; it is checked when they enter and again before rewards are paid."
        error={errors["gate.combine"]}
      >
        <Select {...fieldProps("gate.combine", errors["gate.combine"])} value={combine} onChange={(e) => setCombine(e.target.value as GateValues["combine"])}>
          {COMBINE_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </Field>
      <ol className="grid gap-4" hidden={hydrated && combine === ""} aria-label="Rules">
        {rows.map(({ key, values }, i) => (
          <li key={key} className="grid min-w-0 gap-3 rounded-md border border-dashed p-3 [&_p]:wrap-anywhere">
            <div className="flex items-end gap-2">
              <div className="min-w-0 flex-1">
                <Field id={`gate.rules.${i}.kind`} label={values.kind === "" ? "Add a rule" : `Rule ${i + 1}`} error={errors[`gate.rules.${i}.kind`]}>
                  <Select
                    {...fieldProps(`gate.rules.${i}.kind`, errors[`gate.rules.${i}.kind`])}
                    value={values.kind}
                    onChange={(e) => setKind(key, e.target.value as RuleValues["kind"])}
                  >
                    <option value="">{values.kind === "" ? "Choose a rule…" : "No rule"}</option>
                    {(Object.keys(RULE_KIND_LABELS) as GateRuleKind[]).map((kind) => (
                      <option key={kind} value={kind}>
                        {RULE_KIND_LABELS[kind]}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
              {values.kind !== "" && (
                <Button type="button" variant="ghost" size="icon" onClick={() => remove(key)} aria-label={`Remove rule ${i + 1}`} hidden={!hydrated}>
                  <Trash2 aria-hidden />
                </Button>
              )}
            </div>
            <RuleFields index={i} values={values} errors={errors} networks={networks} />
          </li>
        ))}
      </ol>
      {hydrated && combine !== "" && (
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <Plus className="size-3" aria-hidden /> {chosen} of {MAX_GATE_RULES} rules. Choosing a rule&apos;s kind adds the next row.
        </p>
      )}
    </fieldset>
  );
}

/** One rule's own fields, by its kind. */
function RuleFields({ index, values, errors, networks }: { index: number; values: RuleValues; errors: Errors; networks: Network[] }) {
  const name = (field: string) => `gate.rules.${index}.${field}`;
  const text = (field: keyof RuleValues, label: string, options: { hint?: string; placeholder?: string; numeric?: boolean; mono?: boolean } = {}) => (
    <Field id={name(field)} label={label} hint={options.hint} error={errors[name(field)]}>
      <Input
        {...fieldProps(name(field), errors[name(field)])}
        defaultValue={values[field]}
        inputMode={options.numeric ? "decimal" : undefined}
        placeholder={options.placeholder}
        autoComplete="off"
        spellCheck={false}
        className={options.mono ? "font-mono text-sm" : undefined}
      />
    </Field>
  );
  const network = <NetworkField id={name("chainId")} values={{ [name("chainId")]: values.chainId }} errors={errors} networks={networks} />;
  if (values.kind === "") return null;
  if ((RANGED_KINDS as readonly string[]).includes(values.kind)) {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        {text("min", "At least", { numeric: true, hint: "Empty: no minimum" })}
        {text("max", "At most", { numeric: true, hint: "Empty: no maximum" })}
      </div>
    );
  }
  if (values.kind === "holds_token") {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        {network}
        {text("token", "Token contract", { placeholder: "0x…", mono: true, hint: "Empty: the network's own coin" })}
        {text("amount", "At least", { numeric: true, placeholder: "100" })}
        {text("symbol", "Symbol", { placeholder: "QUEST" })}
        {text("decimals", "Decimals", { numeric: true, hint: "The token's decimals (18 for most)" })}
      </div>
    );
  }
  if (values.kind === "holds_nft") {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        {network}
        {text("contract", "Collection contract", { placeholder: "0x…", mono: true })}
        <Field id={name("standard")} label="Standard" error={errors[name("standard")]}>
          <Select {...fieldProps(name("standard"), errors[name("standard")])} defaultValue={values.standard}>
            <option value="erc721">ERC-721</option>
            <option value="erc1155">ERC-1155</option>
          </Select>
        </Field>
        {text("tokenIds", "Token ids", { hint: "Comma-separated; empty: any token of an ERC-721 collection" })}
        {text("minCount", "At least", { numeric: true })}
        {text("name", "Collection name", { placeholder: "Questline Explorers" })}
      </div>
    );
  }
  return (
    <Field id={name("account")} label="Account" error={errors[name("account")]}>
      <Select {...fieldProps(name("account"), errors[name("account")])} defaultValue={values.account}>
        {LINKABLE_ACCOUNTS.map((a) => (
          <option key={a} value={a}>
            {ACCOUNT_WORDS[a].replace(/^an? /, "").replace(/^./, (c) => c.toUpperCase())}
          </option>
        ))}
      </Select>
    </Field>
  );
}
