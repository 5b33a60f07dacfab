import { parseAbiItem, parseUnits, toFunctionSelector, toFunctionSignature, type AbiEvent, type AbiFunction, type Address } from "viem";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import type { FieldErrors } from "~/lib/result";
import { CHAIN_NAMES } from "~/wallet/chains";
import { abiFunctionSignatures } from "./abi-signatures";
import type { TaskType } from "./task-types";

/**
 * The on-chain task types' fields as the team types them (issue #37), turned into what
 * `parseTaskConfig` stores: a contract_call's signatures (one per line) into `functions`, checked
 * against a pasted ABI; ETH and token amounts into wei and units; an event_emitted's signature parsed
 * with its member and numeric arguments. Then, once the form parses, `onchainTargetRefusals` asks the
 * chain whether the contracts named have code. Refusals are field errors in words.
 */

const networkName = (chainId: number) => CHAIN_NAMES[chainId] ?? `Chain ${chainId}`;

/**
 * Reads the typed on-chain fields (`values`, by input name) into `normalized` (what parseTaskConfig
 * reads) and returns the refusals, by field. Types without such fields return none.
 */
export function readOnchainFields(type: TaskType, values: Record<string, string>, normalized: FormData): FieldErrors {
  const errors: FieldErrors = {};
  const value = (name: string) => (values[`config.${name}`] ?? "").trim();
  if (type === "contract_call") {
    const functions = readFunctions(value("signatures"), value("abi"));
    if (functions.ok) normalized.set("config.functions", JSON.stringify(functions.value));
    else Object.assign(errors, functions.errors);

    const minValue = value("minValue");
    if (minValue !== "") {
      const wei = toUnits(minValue, 18);
      if (typeof wei === "string") normalized.set("config.minValue", wei);
      else errors["config.minValue"] = wei.error;
    }
    const token = value("transferToken");
    const amount = value("transferMinAmount");
    if (token === "" && amount !== "") errors["config.transferToken"] = "Enter the token's address, or leave the amount empty";
    if (token !== "" && amount === "") errors["config.transferMinAmount"] = "Enter the least amount the transaction must move";
    if (token !== "" && amount !== "") {
      const decimals = value("transferDecimals") === "" ? 18 : Number(value("transferDecimals"));
      if (Number.isInteger(decimals) && decimals >= 0 && decimals <= 36) {
        const units = toUnits(amount, decimals);
        if (typeof units === "string") normalized.set("config.transferMinAmount", units);
        else errors["config.transferMinAmount"] = units.error;
      }
    }
  }
  if (type === "event_emitted") Object.assign(errors, readEvent(value("event"), value("memberArg"), value("minArgName"), value("minArgMin"), normalized));
  return errors;
}

type Functions = { ok: true; value: { selector: string; signature: string }[] } | { ok: false; errors: FieldErrors };

/** Each line a signature (`swap(uint256,address)`, names and `function` allowed) or a 0x selector; in the pasted ABI when there is one. */
function readFunctions(text: string, abiText: string): Functions {
  const refuse = (field: string, message: string): Functions => ({ ok: false, errors: { [field]: message } });
  let abi: { signature: string; selector: string }[] | null = null;
  if (abiText !== "") {
    const signatures = abiFunctionSignatures(abiText);
    if (!signatures) return refuse("config.abi", "This is not a JSON ABI: paste the contract's ABI (a JSON array), or leave it empty");
    abi = signatures.map((signature) => ({ signature, selector: toFunctionSelector(signature) }));
  }
  const lines = text
    .split("\n")
    .map((line) => line.trim().replace(/;$/, ""))
    .filter(Boolean);
  if (lines.length === 0) return refuse("config.signatures", "Name at least one function: a signature like transfer(address,uint256), or a 0x selector");
  if (lines.length > 10) return refuse("config.signatures", "Name at most 10 functions");
  const functions: { selector: string; signature: string }[] = [];
  for (const line of lines) {
    let fn: { selector: string; signature: string };
    if (/^0x[0-9a-fA-F]{8}$/.test(line)) {
      const selector = line.toLowerCase();
      fn = { selector, signature: abi?.find((f) => f.selector === selector)?.signature ?? selector };
    } else if (/^0x/.test(line)) {
      return refuse("config.signatures", `“${line}” is not a selector: 0x and 8 hexadecimal characters`);
    } else {
      const item = parseFunction(line);
      if (!item) return refuse("config.signatures", `“${clip(line)}” is not a function signature: write it as name(type,type), like transfer(address,uint256)`);
      const signature = toFunctionSignature(item);
      fn = { selector: toFunctionSelector(signature), signature };
    }
    if (abi && !abi.some((f) => f.selector === fn.selector)) {
      return refuse("config.signatures", `${fn.signature} is not a function of the pasted ABI`);
    }
    if (!functions.some((f) => f.selector === fn.selector)) functions.push(fn);
  }
  return { ok: true, value: functions };
}

function parseFunction(line: string): AbiFunction | null {
  try {
    const item = parseAbiItem(`function ${line.replace(/^function\s+/, "")}` as string);
    return item.type === "function" ? (item as AbiFunction) : null;
  } catch {
    return null;
  }
}

/** The event as Solidity declares it, with names; the member's argument an indexed address; the numeric one an int or uint. */
function readEvent(text: string, memberArg: string, minArgName: string, minArgMin: string, normalized: FormData): FieldErrors {
  const declaration = text
    .replace(/^event\s+/, "")
    .replace(/;$/, "")
    .trim();
  if (declaration === "")
    return { "config.event": "Enter the event as the contract declares it, like Transfer(address indexed from, address indexed to, uint256 value)" };
  let event: AbiEvent;
  try {
    const item = parseAbiItem(`event ${declaration}` as string);
    if (item.type !== "event") throw new Error("not an event");
    event = item as AbiEvent;
  } catch {
    return {
      "config.event": `“${clip(declaration)}” does not parse as an event: write it as Solidity declares it, like Transfer(address indexed from, address indexed to, uint256 value)`,
    };
  }
  if (event.inputs.some((input) => !input.name)) {
    return { "config.event": "Name every argument, as the contract declares it: Transfer(address indexed from, address indexed to, uint256 value)" };
  }
  normalized.set("config.event", declaration);
  const errors: FieldErrors = {};
  const members = event.inputs.filter((input) => input.indexed && input.type === "address").map((input) => input.name!);
  if (members.length === 0) errors["config.memberArg"] = `${event.name} has no indexed address argument: the member's address cannot be looked up in it`;
  else if (!members.includes(memberArg)) {
    errors["config.memberArg"] = memberArg
      ? `${memberArg} is not an indexed address argument of ${event.name}: choose ${orList(members)}`
      : `Choose which argument is the member's address: ${orList(members)}`;
  }
  const numeric = event.inputs.filter((input) => /^u?int\d*$/.test(input.type)).map((input) => input.name!);
  if (minArgName !== "" && !numeric.includes(minArgName)) {
    errors["config.minArgName"] =
      numeric.length === 0
        ? `${event.name} has no numeric argument: leave this empty`
        : `${minArgName} is not a numeric argument of ${event.name}: choose ${orList(numeric)}`;
  }
  if (minArgName !== "" && !/^\d{1,78}$/.test(minArgMin.replace(/[,_\s]/g, ""))) {
    errors["config.minArgMin"] = "Enter the least value as a whole number, in the argument's raw units (no decimals)";
  } else if (minArgName !== "") normalized.set("config.minArgMin", minArgMin.replace(/[,_\s]/g, ""));
  if (minArgName === "" && minArgMin !== "") errors["config.minArgName"] = "Choose the argument the minimum is for, or leave the minimum empty";
  return errors;
}

/** A human amount (`0.01`) in the smallest unit with `decimals`, or why not. */
function toUnits(human: string, decimals: number): string | { error: string } {
  const amount = human.replace(/,/g, "");
  if (!/^\d+(\.\d+)?$/.test(amount)) return { error: "Enter an amount as a number, like 0.01" };
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.replace(/0+$/, "").length > decimals)
    return { error: decimals === 0 ? "This token has no decimals: enter a whole amount" : `At most ${decimals} decimal places` };
  const units = parseUnits(amount, decimals);
  if (units <= 0n) return { error: "Enter an amount above 0, or leave it empty" };
  if (units.toString().length > 78) return { error: "That amount is too large" };
  return units.toString();
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);
const orList = (names: string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`);

/** The contracts a saved config names, each with the form field it was typed in. */
function contractsOf(type: TaskType, config: Record<string, unknown>): { field: string; address: Address; what: string }[] {
  const found: { field: string; address: Address; what: string }[] = [];
  if (type === "hold_token" && typeof config.tokenAddress === "string")
    found.push({ field: "config.tokenAddress", address: config.tokenAddress as Address, what: "token" });
  if ((type === "nft_hold" || type === "contract_call" || type === "event_emitted") && typeof config.contract === "string") {
    found.push({ field: "config.contract", address: config.contract as Address, what: "contract" });
  }
  const transfer = config.transfer as { token?: unknown } | null | undefined;
  if (type === "contract_call" && transfer && typeof transfer.token === "string") {
    found.push({ field: "config.transferToken", address: transfer.token as Address, what: "token" });
  }
  return found;
}

/**
 * Whether each contract the task names has code on its chain (`pageClient.getCode`), as refusals by
 * field: "No contract is deployed at 0x… on Base". A node that does not answer refuses too, in words
 * ("could not be reached … Try again"): nothing is saved on a guess.
 */
export async function onchainTargetRefusals({
  chains,
  type,
  config,
}: {
  chains: Pick<ChainRegistry, "get">;
  type: TaskType;
  config: Record<string, unknown>;
}): Promise<FieldErrors> {
  const targets = contractsOf(type, config);
  if (targets.length === 0 || typeof config.chainId !== "number") return {};
  const chainId = config.chainId;
  const network = networkName(chainId);
  const client = chains.get(chainId)?.pageClient;
  const errors: FieldErrors = {};
  await Promise.all(
    targets.map(async ({ field, address, what }) => {
      if (!client) {
        errors[field] = `The ${network} node could not be reached to check the ${what}. Try again.`;
        return;
      }
      try {
        const code = await client.getCode({ address });
        if (!code || code === "0x") errors[field] = `No contract is deployed at ${address} on ${network}`;
      } catch {
        errors[field] = `The ${network} node could not be reached to check the ${what}. Try again.`;
      }
    }),
  );
  return errors;
}
