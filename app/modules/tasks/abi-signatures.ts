/**
 * A pasted JSON ABI's functions as canonical signatures (`transfer(address,uint256)`), for the task
 * form to offer as checkboxes. Browser-safe and without viem (the form's bundle stays small): the
 * server parses each chosen signature with viem again (task-form.server.ts). Tuples expand to their
 * components' types in parentheses, arrays keep their suffix: `(address,uint256)[]`.
 */
type AbiParameter = { type?: unknown; components?: unknown };

function canonicalType(param: AbiParameter): string | null {
  if (typeof param.type !== "string") return null;
  const tuple = /^tuple((?:\[\d*\])*)$/.exec(param.type);
  if (!tuple) return param.type;
  if (!Array.isArray(param.components)) return null;
  const inner = param.components.map((c) => canonicalType(c as AbiParameter));
  return inner.includes(null) ? null : `(${inner.join(",")})${tuple[1]}`;
}

/** The functions of a pasted ABI, or null when the text is not a JSON ABI (an array of entries). */
export function abiFunctionSignatures(text: string): string[] | null {
  let abi: unknown;
  try {
    abi = JSON.parse(text);
  } catch {
    return null;
  }
  // A Hardhat or Foundry artifact carries its ABI under `abi`.
  if (abi && typeof abi === "object" && !Array.isArray(abi) && Array.isArray((abi as { abi?: unknown }).abi)) abi = (abi as { abi: unknown }).abi;
  if (!Array.isArray(abi)) return null;
  const signatures: string[] = [];
  for (const entry of abi) {
    if (!entry || typeof entry !== "object") continue;
    const { type, name, inputs } = entry as { type?: unknown; name?: unknown; inputs?: unknown };
    if (type !== "function" || typeof name !== "string" || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
    const types = (Array.isArray(inputs) ? inputs : []).map((input) => canonicalType(input as AbiParameter));
    if (types.includes(null)) continue;
    const signature = `${name}(${types.join(",")})`;
    if (!signatures.includes(signature)) signatures.push(signature);
  }
  return signatures;
}
