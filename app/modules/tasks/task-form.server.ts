import { and, desc, eq, gt, or } from "drizzle-orm";
import { formatUnits, parseUnits } from "viem";
import { airdrop } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { invalid, invalidFields, ok, type FieldFailure, type Ok } from "~/lib/result";
import { CHAIN_NAMES } from "~/wallet/chains";
import { campaignStatus } from "./campaign-status";
import { listCampaigns } from "./campaigns.server";
import { withOffset } from "./local-datetime";
import type { Task } from "./completions.server";
import { parseTaskConfig, taskFormSchema, VERIFICATION_MODES } from "./task.schema";
import { TASK_TYPE_LABELS } from "./task-types";
import { TASK_TYPES } from "./task-types";
import { isApiChecked, isOnchainChecked, socialProviderOf } from "./task-checks";
import { onchainTargetRefusals, readOnchainFields } from "./onchain-targets.server";
import { taskWindowRefusals } from "./task-window.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import type { TaskInput } from "./tasks.server";
import { checkOutboundUrl } from "~/lib/outbound-request.server";

/** What the task form shows in its fields, by input name (`title`, `config.url`…). */
export type TaskFormValues = Record<string, string>;

/** The form's values come back either way, so a refused form keeps what was typed. */
export type ReadTaskForm = Ok<{ input: TaskInput; values: TaskFormValues }> | (FieldFailure & { values: TaskFormValues });

/** Zod's own wording for a field a person typed into badly, replaced with a sentence about that field. */
const MESSAGES: Record<string, string> = {
  description: "Keep the description under 2000 characters",
  verification: "Choose how completions are checked",
  recurrence: "Choose once or daily",
  "config.question": "Write the question, 3 to 500 characters",
  "config.answers": "Give 1 to 20 accepted answers, one per line, each under 200 characters",
  "config.retryDelaySeconds": "Enter a whole number of seconds from 0 to 86,400",
  "config.prompt": "Keep the instructions under 500 characters",
  "config.minLength": "Enter a whole number of characters from 1 to 5,000",
  "config.chainId": "Choose a network",
  "config.symbol": "Keep the symbol to 12 characters",
  "config.decimals": "Decimals are a whole number from 0 to 36",
  "config.count": "Enter a whole number of members from 1 to 1,000",
  "config.phrase": "Enter the phrase or link the post must contain, 2 to 200 characters",
  "config.snapshotBlock": "Enter a block number (a whole number), or leave it empty for the latest block",
  "config.minCount": "Enter a whole number from 1 to 1,000,000",
  "config.minTxCount": "Enter a whole number of transactions from 1 to 1,000,000, or leave it empty",
  "config.minAgeDays": "Enter a whole number of days from 1 to 10,000, or leave it empty",
  "config.transferDecimals": "Decimals are a whole number from 0 to 36",
  "config.memberArg": "Choose which argument is the member's address",
};
const isZodWording = (message: string) => /^(Invalid|Too (big|small)|Expected)/i.test(message);
const friendly = (field: string, message: string) => (isZodWording(message) && MESSAGES[field] ? MESSAGES[field] : message);

/**
 * Reads the task form: the common fields with `taskFormSchema`, the type's own (`config.*`) with
 * `parseTaskConfig`. A token minimum typed as a human amount (`1.5`) is turned into the token's
 * smallest unit with its decimals; `chainIds` are the networks an on-chain task may use (those the
 * server has a node for). The on-chain types' typed fields (signatures, an event, ETH amounts) are
 * read by `readOnchainFields`; whether their contracts exist is asked of the chain afterwards
 * (`onchainTargetRefusals`), as is the task's window against its campaign's (`taskWindowRefusals`).
 */
export function readTaskForm(formData: FormData, { chainIds }: { chainIds: number[] }): ReadTaskForm {
  const values: TaskFormValues = {};
  for (const [key, value] of formData) if (typeof value === "string" && key !== "intent") values[key] = value;

  const normalized = new FormData();
  for (const [key, value] of Object.entries(values)) {
    // Times are typed in the member's zone; the browser sends its offset beside each (`startsAtOffset`).
    normalized.set(key, key === "startsAt" || key === "endsAt" ? withOffset(value, values[`${key}Offset`]) : value);
  }

  const errors: FieldErrors = {};
  const common = parseForm(taskFormSchema, normalized);
  if (!common.ok) for (const [field, message] of Object.entries(common.errors)) errors[field] = friendly(field, message);

  const type = common.ok ? common.data.type : TASK_TYPES.find((t) => t === values.type);
  let config: Record<string, unknown> | null = null;
  if (type) {
    if (isOnchainChecked(type)) {
      const chainId = Number(values["config.chainId"]);
      if (!chainIds.includes(chainId)) errors["config.chainId"] = "Choose one of the networks offered: this server has no node for that one";
      Object.assign(errors, readOnchainFields(type, values, normalized));
    }
    if (type === "hold_token") {
      // Read at a snapshot block, a holding cannot change: nothing to re-check before rewards.
      if ((values["config.snapshotBlock"] ?? "").trim() !== "") normalized.delete("config.recheckBeforeRewards");
      const amount = toSmallestUnit(values["config.minBalance"] ?? "", values["config.decimals"] ?? "");
      if (amount.ok) normalized.set("config.minBalance", amount.value);
      else Object.assign(errors, amount.errors);
    }
    const parsed = parseTaskConfig(type, normalized);
    if (parsed.success) config = parsed.data;
    else {
      for (const issue of parsed.error.issues) {
        const field = configField(issue.path);
        errors[field] ??= friendly(field, issue.message);
      }
    }
  }

  if (!common.ok || !config || Object.keys(errors).length > 0) return { ...invalidFields(errors), values };
  return ok({ values, input: { ...common.data, config, published: values.published === "on" } });
}

/** The form field a config issue belongs to: nested settings have flat inputs (`transfer.token` → `config.transferToken`). */
function configField(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === "functions") return "config.signatures";
  if ((first === "transfer" || first === "minArg") && second) {
    const name = first === "transfer" ? `transfer${second[0]!.toUpperCase()}${second.slice(1)}` : second === "name" ? "minArgName" : "minArgMin";
    return `config.${name}`;
  }
  return `config.${first ?? ""}`;
}

/** `1.5` with 18 decimals → `1500000000000000000`; refuses amounts finer than the token allows (on `config.minBalance`). */
function toSmallestUnit(human: string, decimalsText: string): Ok<{ value: string }> | FieldFailure {
  const refuse = (message: string) => invalid("config.minBalance", message);
  const amount = human.trim().replace(/,/g, "");
  if (!/^\d+(\.\d+)?$/.test(amount)) return refuse("Enter the minimum balance as a number, like 1.5");
  const decimals = decimalsText.trim() === "" ? 18 : Number(decimalsText);
  // A bad decimals value is reported on its own field; the amount waits for it.
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) return ok({ value: "0" });
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.replace(/0+$/, "").length > decimals) {
    return refuse(decimals === 0 ? "This token has no decimals: enter a whole amount" : `At most ${decimals} decimal places`);
  }
  const value = parseUnits(amount, decimals);
  if (value <= 0n) return refuse("Enter a minimum balance above 0");
  if (value.toString().length > 78) return refuse("That amount is too large");
  return ok({ value: value.toString() });
}

/** A stored moment as an ISO string (the form shows it in the member's zone, see DateTimeInput). */
const stored = (date: Date | null) => (date ? date.toISOString() : "");

/** A saved task as the edit form's values. */
export function taskFormValues(t: Task): TaskFormValues {
  const config = (t.config ?? {}) as Record<string, unknown>;
  const text = (key: string) => (config[key] === undefined || config[key] === null ? "" : String(config[key]));
  const values: TaskFormValues = {
    title: t.title,
    description: t.description,
    type: t.type,
    xp: String(t.xp),
    verification: t.verification,
    recurrence: t.recurrence,
    startsAt: stored(t.startsAt),
    endsAt: stored(t.endsAt),
    cap: t.cap === null ? "" : String(t.cap),
    campaignId: t.campaignId ?? "",
    airdropId: t.airdropId ?? "",
    published: t.publishedAt ? "on" : "",
  };
  for (const key of [
    "url",
    "question",
    "retryDelaySeconds",
    "prompt",
    "minLength",
    "chainId",
    "tokenAddress",
    "symbol",
    "decimals",
    "count",
    "handle",
    "postUrl",
    "phrase",
    "channelId",
    "channelName",
    "snapshotBlock",
    "contract",
    "standard",
    "minCount",
    "name",
    "actionUrl",
    "event",
    "memberArg",
    "minTxCount",
    "minAgeDays",
    "instructions",
    // Discord and Telegram tasks: the server, role or group, and its invite.
    "guildId",
    "guildName",
    "roleId",
    "roleName",
    "chatId",
    "chatTitle",
    "inviteUrl",
  ]) {
    if (key in config) values[`config.${key}`] = text(key);
  }
  // Checkboxes: on or off as saved (a follow's re-check is on unless turned off).
  if (t.type === "x_follow") values["config.allowProof"] = config.allowProof === true ? "on" : "";
  if ((["x_follow", "youtube_subscribe", "hold_token", "nft_hold", "discord_join", "discord_role", "telegram_join"] as string[]).includes(t.type)) {
    values["config.recheckBeforeRewards"] = config.recheckBeforeRewards === false ? "" : "on";
  }
  Object.assign(values, onchainFormValues(config));
  if (Array.isArray(config.answers)) values["config.answers"] = config.answers.join("\n");
  if (typeof config.minBalance === "string") {
    const decimals = typeof config.decimals === "number" ? config.decimals : 18;
    values["config.minBalance"] = formatUnits(BigInt(config.minBalance), decimals);
  }
  return values;
}

/** The on-chain settings stored in another shape than typed: token ids, functions, wei, a token moved, an event's minimum. */
function onchainFormValues(config: Record<string, unknown>): TaskFormValues {
  const values: TaskFormValues = {};
  if (Array.isArray(config.tokenIds)) values["config.tokenIds"] = config.tokenIds.join(", ");
  if (Array.isArray(config.functions)) {
    values["config.signatures"] = (config.functions as { signature: string }[]).map((f) => f.signature).join("\n");
  }
  if (typeof config.minValue === "string") values["config.minValue"] = formatUnits(BigInt(config.minValue), 18);
  const transfer = config.transfer as { token: string; minAmount: string; symbol: string; decimals: number } | null | undefined;
  if (transfer) {
    values["config.transferToken"] = transfer.token;
    values["config.transferMinAmount"] = formatUnits(BigInt(transfer.minAmount), transfer.decimals);
    values["config.transferSymbol"] = transfer.symbol;
    values["config.transferDecimals"] = String(transfer.decimals);
  }
  const minArg = config.minArg as { name: string; min: string } | null | undefined;
  if (minArg) {
    values["config.minArgName"] = minArg.name;
    values["config.minArgMin"] = minArg.min;
  }
  return values;
}

/**
 * What the form offers: the types with their verification modes, the project's campaigns (drafts
 * too), its airdrops that still take tasks (drafts too; `keepAirdropId`, the task's own, even
 * once it has ended) and the networks a token can be held on.
 */
export async function taskFormOptions({
  db,
  projectId,
  chainIds,
  socialProviders = {},
  keepAirdropId = null,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  chainIds: number[];
  /** The social providers configured on this server: the others' task types are offered, marked not set up. */
  socialProviders?: SocialConfig["connectable"];
  keepAirdropId?: string | null;
  now?: Date;
}) {
  const [campaigns, airdrops] = await Promise.all([
    listCampaigns({ db, projectId, withDrafts: true, limit: 200 }),
    db
      .select({
        id: airdrop.id,
        name: airdrop.name,
        status: airdrop.status,
        publishedAt: airdrop.publishedAt,
        startsAt: airdrop.startsAt,
        endsAt: airdrop.endsAt,
      })
      .from(airdrop)
      .where(
        and(
          eq(airdrop.projectId, projectId),
          or(and(eq(airdrop.status, "open"), gt(airdrop.endsAt, now)), keepAirdropId ? eq(airdrop.id, keepAirdropId) : undefined),
        ),
      )
      .orderBy(desc(airdrop.startsAt))
      .limit(200),
  ]);
  return {
    types: TASK_TYPES.map((type) => {
      const provider = isApiChecked(type) ? socialProviderOf(type) : null;
      return {
        value: type,
        label: TASK_TYPE_LABELS[type],
        modes: VERIFICATION_MODES[type],
        notSetUp: provider && !socialProviders[provider] ? provider : null,
      };
    }),
    campaigns: campaigns.map((c) => ({ id: c.id, name: c.name, status: c.status })),
    airdrops: airdrops.map((a) => ({ id: a.id, name: a.name, status: a.status === "frozen" ? "frozen" : campaignStatus(a, now) })),
    networks: chainIds.map((id) => ({ id, name: CHAIN_NAMES[id] ?? `Chain ${id}` })),
  };
}

/** The networks on-chain tasks may use: those the server has a node for. */
export const onchainNetworks = (chains: Pick<ChainRegistry, "list">) => chains.list.map((chain) => chain.id);

/** A new task's starting values. */
export const NEW_TASK_VALUES: TaskFormValues = {
  type: "visit_link",
  xp: "10",
  verification: "none",
  recurrence: "once",
  "config.retryDelaySeconds": "0",
  "config.minLength": "1",
  "config.decimals": "18",
  "config.count": "1",
  "config.recheckBeforeRewards": "on",
  "config.standard": "erc721",
  "config.minCount": "1",
  "config.transferDecimals": "18",
};

/**
 * What a parsed form is asked of the world before it is saved: its window against its campaign's or
 * airdrop's, whether the contracts it names have code on its chain, and whether an api_check task's
 * URL may be reached (no private address; loopback only when `allowLoopback`, the local trial's).
 * Field errors; none: save.
 */
export async function taskFormRefusals({
  db,
  chains,
  projectId,
  input,
  allowLoopback = false,
}: {
  db: Db;
  chains: Pick<ChainRegistry, "get">;
  projectId: string;
  input: TaskInput;
  allowLoopback?: boolean;
}): Promise<FieldErrors> {
  const [window, targets, server] = await Promise.all([
    taskWindowRefusals({ db, projectId, input }),
    onchainTargetRefusals({ chains, type: input.type, config: input.config as Record<string, unknown> }),
    apiCheckUrlRefusal(input, { allowLoopback }),
  ]);
  return { ...window, ...targets, ...server };
}

/** An api_check task's URL, refused when it names an address this server may not reach. */
async function apiCheckUrlRefusal(input: TaskInput, { allowLoopback }: { allowLoopback: boolean }): Promise<FieldErrors> {
  if (input.type !== "api_check") return {};
  const checked = await checkOutboundUrl(String((input.config as { url?: unknown }).url ?? ""), { allowLoopback });
  return checked.ok ? {} : { "config.url": checked.message };
}
