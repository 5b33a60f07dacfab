import { useMemo, useState, type ReactNode } from "react";
import { CheckboxField } from "~/components/ui/form-parts";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { abiFunctionSignatures } from "~/modules/tasks/abi-signatures";

type Values = Record<string, string>;
type Errors = Record<string, string>;
type Network = { id: number; name: string };
type Common = { values: Values; errors: Errors };

type TextOptions = { hint?: string; placeholder?: string; inputMode?: "decimal" | "numeric"; type?: string; mono?: boolean };

/** A `config.<name>` text input with its label, hint and error. */
function TextField({ name, label, values, errors, ...options }: Common & TextOptions & { name: string; label: string }) {
  const id = `config.${name}`;
  return (
    <Field id={id} label={label} hint={options.hint} error={errors[id]}>
      <Input
        {...fieldProps(id, errors[id])}
        type={options.type ?? "text"}
        inputMode={options.inputMode}
        placeholder={options.placeholder}
        defaultValue={values[id] ?? ""}
        autoComplete="off"
        spellCheck={false}
        className={options.mono ? "font-mono text-sm" : undefined}
      />
    </Field>
  );
}

/** The networks a check on a chain may use (an on-chain task, a gate's holding rule): those this server has a node for. */
export function NetworkField({ values, errors, networks, id = "config.chainId" }: Common & { networks: Network[]; id?: string }) {
  return (
    <Field
      id={id}
      label="Network"
      hint={networks.length === 0 ? "This server has no node for any network: nothing on a chain can be checked until one is configured." : undefined}
      error={errors[id]}
    >
      <Select {...fieldProps(id, errors[id])} defaultValue={values[id] || String(networks[0]?.id ?? "")}>
        {networks.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name} ({n.id})
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** The type's fields: long signatures, events and addresses in hints and errors wrap on a phone instead of widening the form. */
function OnchainGroup({ children }: { children: ReactNode }) {
  return <div className="grid min-w-0 gap-5 [&_p]:wrap-anywhere">{children}</div>;
}

const contractField = (common: Common, label: string, hint: string) => (
  <TextField {...common} name="contract" label={label} placeholder="0x…" hint={hint} mono />
);

const actionUrlField = (common: Common) => (
  <TextField
    {...common}
    name="actionUrl"
    label="Where members do it"
    placeholder="https://… or /demo-dapp"
    hint="Optional. The page members open to do it (your dApp, a mint page): an https:// link, or a path on this site like /demo-dapp. Shown as a Go button."
  />
);

const recheckField = (values: Values, what: string) => (
  <CheckboxField
    name="config.recheckBeforeRewards"
    label="Re-check before rewards are paid"
    hint={`Once more when the campaign's rewards are paid or the airdrop freezes: a member who no longer holds ${what} loses this task's approval and its XP, and is told why.`}
    defaultChecked={values["config.recheckBeforeRewards"] === "on"}
  />
);

/** Hold a token: the network, the token and its minimum, and optionally the block it is read at. */
export function HoldTokenFields({ values, errors, networks }: Common & { networks: Network[] }) {
  const common = { values, errors };
  const [snapshot, setSnapshot] = useState(values["config.snapshotBlock"] ?? "");
  return (
    <OnchainGroup>
      <NetworkField {...common} networks={networks} />
      <TextField {...common} name="tokenAddress" label="Token address" placeholder="0x…" hint="Leave empty for the network's native coin (BNB, ETH)." mono />
      <TextField
        {...common}
        name="minBalance"
        label="Minimum balance"
        inputMode="decimal"
        placeholder="1.5"
        hint="In whole tokens: 1.5 means one and a half."
      />
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <TextField {...common} name="symbol" label="Symbol" placeholder="USDT" hint="Shown to members." />
        <TextField {...common} name="decimals" label="Decimals" type="number" inputMode="numeric" hint="18 for most tokens." />
      </div>
      <Field
        id="config.snapshotBlock"
        label="At block (optional)"
        hint="The balance is read as it was at this block, so a holding cannot be borrowed for the minute of the check. Empty: read when the member checks."
        error={errors["config.snapshotBlock"]}
      >
        <Input
          {...fieldProps("config.snapshotBlock", errors["config.snapshotBlock"])}
          inputMode="numeric"
          placeholder="18204331"
          value={snapshot}
          onChange={(e) => setSnapshot(e.target.value)}
          autoComplete="off"
        />
      </Field>
      {snapshot.trim() === "" && recheckField(values, "the tokens")}
    </OnchainGroup>
  );
}

/** Hold an NFT: the collection, its standard, the ids that count and how many. */
export function NftHoldFields({ values, errors, networks }: Common & { networks: Network[] }) {
  const common = { values, errors };
  const [standard, setStandard] = useState(values["config.standard"] || "erc721");
  return (
    <OnchainGroup>
      <NetworkField {...common} networks={networks} />
      {contractField(common, "Collection contract", "The NFT collection's address on that network.")}
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field id="config.standard" label="Standard" error={errors["config.standard"]}>
          <Select {...fieldProps("config.standard", errors["config.standard"])} value={standard} onChange={(e) => setStandard(e.target.value)}>
            <option value="erc721">ERC-721</option>
            <option value="erc1155">ERC-1155</option>
          </Select>
        </Field>
        <TextField {...common} name="minCount" label="Minimum count" type="number" inputMode="numeric" hint="How many tokens the member holds, at least." />
      </div>
      <TextField
        {...common}
        name="tokenIds"
        label={standard === "erc1155" ? "Token ids" : "Token ids (optional)"}
        placeholder="1, 2, 3"
        hint={
          standard === "erc1155"
            ? "Required for ERC-1155: the ids that count, separated by commas or spaces."
            : "Empty: any token of the collection counts. Or only these ids, separated by commas or spaces."
        }
      />
      <TextField {...common} name="name" label="Collection name" placeholder="Questline Explorers" hint="Shown to members." />
      {recheckField(values, "the NFT")}
      {actionUrlField(common)}
    </OnchainGroup>
  );
}

/** Call a contract: the contract, the functions that count (picked from a pasted ABI or typed), what the call must move. */
export function ContractCallFields({ values, errors, networks }: Common & { networks: Network[] }) {
  const common = { values, errors };
  const [abi, setAbi] = useState(values["config.abi"] ?? "");
  const [lines, setLines] = useState(values["config.signatures"] ?? "");
  const listed = useMemo(() => (abi.trim() === "" ? null : abiFunctionSignatures(abi)), [abi]);
  const chosen = lines
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const toggle = (signature: string, on: boolean) =>
    setLines((on ? [...chosen.filter((line) => line !== signature), signature] : chosen.filter((line) => line !== signature)).join("\n"));
  const abiError = errors["config.abi"];
  const signaturesError = errors["config.signatures"];
  return (
    <OnchainGroup>
      <NetworkField {...common} networks={networks} />
      {contractField(common, "Contract", "The contract members call (the transaction's to address).")}
      <Field
        id="config.abi"
        label="Paste the contract's ABI (optional)"
        hint={
          abi.trim() === ""
            ? "The JSON ABI from the contract's explorer page or artifact: its functions are then listed to pick from, and only those are accepted."
            : listed === null
              ? "This does not read as a JSON ABI yet (a JSON array)."
              : `${listed.length} ${listed.length === 1 ? "function" : "functions"} found.`
        }
        error={abiError}
      >
        <Textarea
          {...fieldProps("config.abi", abiError)}
          value={abi}
          onChange={(e) => setAbi(e.target.value)}
          rows={4}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder='[{"type":"function","name":"swap",…}]'
        />
      </Field>
      {listed && listed.length > 0 && (
        <fieldset className="grid gap-2 rounded-lg border p-3">
          <legend className="px-1 text-sm font-medium">Functions of the ABI</legend>
          <div className="grid max-h-64 gap-1 overflow-y-auto">
            {listed.map((signature) => (
              <label key={signature} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-muted/50">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-lime-600"
                  checked={chosen.includes(signature)}
                  onChange={(e) => toggle(signature, e.target.checked)}
                />
                <code className="font-mono text-xs break-all">{signature}</code>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <Field
        id="config.signatures"
        label="Functions"
        hint="One per line: a signature like swapExactTokensForTokens(uint256,uint256,address[],address,uint256), or a 0x selector. A call to any of them counts."
        error={signaturesError}
      >
        <Textarea
          {...fieldProps("config.signatures", signaturesError)}
          value={lines}
          onChange={(e) => setLines(e.target.value)}
          rows={3}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder="transfer(address,uint256)"
        />
      </Field>
      <TextField
        {...common}
        name="minValue"
        label="Minimum value sent (optional)"
        inputMode="decimal"
        placeholder="0.01"
        hint="In the network's coin (ETH): 0.01 means a hundredth. Empty: any value."
      />
      <fieldset className="grid gap-4 rounded-lg border p-3">
        <legend className="px-1 text-sm font-medium">A token the call must move (optional)</legend>
        <TextField
          {...common}
          name="transferToken"
          label="Token address"
          placeholder="0x…"
          hint="An ERC-20 whose Transfer, from or to the member, the transaction logs."
          mono
        />
        <div className="grid items-start gap-4 sm:grid-cols-3">
          <TextField {...common} name="transferMinAmount" label="Minimum amount" inputMode="decimal" placeholder="100" hint="In whole tokens." />
          <TextField {...common} name="transferSymbol" label="Symbol" placeholder="USDC" />
          <TextField {...common} name="transferDecimals" label="Decimals" type="number" inputMode="numeric" hint="18 for most tokens." />
        </div>
      </fieldset>
      {actionUrlField(common)}
    </OnchainGroup>
  );
}

/** Emit an event: the contract, the event as Solidity declares it, which argument is the member, an optional minimum. */
export function EventEmittedFields({ values, errors, networks }: Common & { networks: Network[] }) {
  const common = { values, errors };
  return (
    <OnchainGroup>
      <NetworkField {...common} networks={networks} />
      {contractField(common, "Contract", "The contract that emits the event.")}
      <Field
        id="config.event"
        label="Event"
        hint="As Solidity declares it, with the argument names: Swap(address indexed sender, address indexed to, uint256 amountIn, uint256 amountOut)."
        error={errors["config.event"]}
      >
        <Textarea
          {...fieldProps("config.event", errors["config.event"])}
          defaultValue={values["config.event"] ?? ""}
          rows={2}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder="Transfer(address indexed from, address indexed to, uint256 value)"
        />
      </Field>
      <TextField
        {...common}
        name="memberArg"
        label="Member's address is the argument"
        placeholder="to"
        hint="The name of an indexed address argument of the event: it must be one of the member's linked wallets."
        mono
      />
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <TextField
          {...common}
          name="minArgName"
          label="Numeric argument (optional)"
          placeholder="value"
          hint="A uint or int argument the event must carry enough of."
          mono
        />
        <TextField
          {...common}
          name="minArgMin"
          label="At least"
          inputMode="numeric"
          placeholder="1000000"
          hint="In the argument's raw units, as the event logs it (no decimals: 1 token of 6 decimals is 1000000)."
        />
      </div>
      {actionUrlField(common)}
    </OnchainGroup>
  );
}

/** Wallet history: transactions sent, the wallet's age, or both. */
export function WalletActivityFields({ values, errors, networks }: Common & { networks: Network[] }) {
  const common = { values, errors };
  return (
    <OnchainGroup>
      <NetworkField {...common} networks={networks} />
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <TextField
          {...common}
          name="minTxCount"
          label="At least N transactions sent"
          type="number"
          inputMode="numeric"
          placeholder="10"
          hint="Read from the wallet's nonce. Empty: any number."
        />
        <TextField
          {...common}
          name="minAgeDays"
          label="First activity at least D days ago"
          type="number"
          inputMode="numeric"
          placeholder="30"
          hint="Needs a node that answers historical state (an archive node); a pruned node cannot say how old a wallet is. Empty: any age."
        />
      </div>
    </OnchainGroup>
  );
}
