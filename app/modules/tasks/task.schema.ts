import { z } from "zod";
import { FORM_DATE_RANGE_MESSAGE, isFormDate } from "./local-datetime";
import {
  INSTAGRAM_HANDLE,
  parseInstagramHandleInput,
  parseTelegramChatInput,
  parseTiktokHandleInput,
  parseXHandleInput,
  parseXPostInput,
  parseYoutubeChannelInput,
  TELEGRAM_CHAT_ID,
  TIKTOK_HANDLE,
  X_HANDLE,
  X_POST_URL,
  YOUTUBE_CHANNEL_ID,
} from "./social-targets";
import { TASK_TYPE_LABELS, TASK_TYPES, type TaskType } from "./task-types";

/** A phrase or link a member's post must contain. */
const phrase = z.string().trim().min(2, "Enter the phrase or link the post must contain").max(200, "Keep the phrase under 200 characters");
/** A follow is re-checked once before a campaign's rewards are paid, unless the team turns it off. */
const recheckBeforeRewards = z.boolean().default(true);
const xPost = z
  .object({ postUrl: z.string().regex(X_POST_URL, "Enter the post's link: https://x.com/<account>/status/<number>") })
  .transform(({ postUrl }) => ({ postUrl, postId: X_POST_URL.exec(postUrl)![1]! }));

/** A chain's id (a network the server reaches; the form checks which). */
const chainId = z.number().int().positive();
const evmAddress = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, message);
/** An amount in a token's smallest unit, as a decimal string. */
const units = z.string().regex(/^\d{1,78}$/, "Enter a whole amount");
/** Where members do it (a dApp, a mint page): a full https link or a path on this server; empty for none. */
const actionUrl = z
  .string()
  .trim()
  .max(2000, "Keep the link under 2000 characters")
  .refine(
    (v) => v === "" || /^\/(?!\/)/.test(v) || /^https?:\/\/[^\s]+$/.test(v),
    "Enter a link starting with https://, or a path on this site like /demo-dapp",
  )
  .default("");

/** Each task type's settings, as stored in `task.config`. */
const discordId = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{17,20}$/, message);
const communityName = (message: string) => z.string().trim().min(1, message).max(100, "Keep the name under 100 characters");
/** Where members join: a discord.gg or discord.com/invite link. */
const discordInvite = z
  .string()
  .trim()
  .regex(/^https:\/\/(?:discord\.gg|discord\.com\/invite)\/[A-Za-z0-9-]{2,32}$/, "Enter the server's invite link: https://discord.gg/…");
/** Where members join: a t.me link (public name or invite). */
const telegramInvite = z
  .string()
  .trim()
  .regex(
    /^https:\/\/t\.me\/(?:\+[A-Za-z0-9_-]{8,40}|joinchat\/[A-Za-z0-9_-]{8,40}|[A-Za-z][A-Za-z0-9_]{4,31})$/,
    "Enter the group's or channel's link: https://t.me/…",
  );
const channelName = z.string().trim().min(1, "Enter the channel's name, as YouTube shows it").max(100, "Keep the name under 100 characters");

export const taskConfigSchemas = {
  visit_link: z.object({ url: z.url({ protocol: /^https?$/, error: "Enter the link to visit: http:// or https://" }) }),
  quiz: z.object({
    question: z.string().trim().min(3, "Write the question").max(500),
    answers: z.array(z.string().trim().min(1).max(200)).min(1, "Give at least one accepted answer").max(20),
    retryDelaySeconds: z.number().int().min(0).max(86_400).default(0),
  }),
  submit_text: z.object({ prompt: z.string().trim().max(500).default(""), minLength: z.number().int().min(1).max(5000).default(1) }),
  submit_url: z.object({ prompt: z.string().trim().max(500).default("") }),
  submit_image: z.object({ prompt: z.string().trim().max(500).default("") }),
  hold_token: z.object({
    chainId: z.number().int().positive(),
    /** Null for the chain's native coin. */
    tokenAddress: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "Enter a 0x token address, or leave it empty for the native coin")
      .nullable(),
    /** The minimum balance in the token's smallest unit, as a decimal string. */
    minBalance: z.string().regex(/^\d{1,78}$/, "Enter a whole amount"),
    symbol: z.string().trim().max(12).default(""),
    decimals: z.number().int().min(0).max(36).default(18),
    /** The block the balance is read at, so a holding cannot be borrowed for the minute of the check; null: the chain's latest block. */
    snapshotBlock: z.number().int().nonnegative("A block number is 0 or more").nullable().default(null),
    /** Re-read before a campaign's rewards are paid or an airdrop freezes (without a snapshot block). */
    recheckBeforeRewards,
  }),
  nft_hold: z
    .object({
      chainId,
      contract: evmAddress("Enter the collection's contract address: 0x and 40 hexadecimal characters"),
      standard: z.enum(["erc721", "erc1155"], { error: "Choose ERC-721 or ERC-1155" }),
      /** Token ids that count (decimal strings); none: any token of an ERC-721 collection. */
      tokenIds: z
        .array(z.string().regex(/^\d{1,78}$/, "Token ids are whole numbers"))
        .max(20, "Name at most 20 token ids")
        .default([]),
      minCount: z.number().int().min(1, "At least 1").max(1_000_000, "At most 1,000,000").default(1),
      /** The collection's name, as members know it. */
      name: z.string().trim().max(60, "Keep the name under 60 characters").default(""),
      recheckBeforeRewards,
      actionUrl,
    })
    .refine((c) => c.standard === "erc721" || c.tokenIds.length > 0, {
      path: ["tokenIds"],
      message: "An ERC-1155 contract counts per token id: name the ids that count",
    }),
  contract_call: z.object({
    chainId,
    contract: evmAddress("Enter the contract's address: 0x and 40 hexadecimal characters"),
    /** The functions that count: each one's 4-byte selector and the signature it was read from. */
    functions: z
      .array(z.object({ selector: z.string().regex(/^0x[0-9a-f]{8}$/), signature: z.string().max(500) }))
      .min(1, "Name at least one function")
      .max(10, "Name at most 10 functions"),
    /** The least native value sent, in wei; null: any. */
    minValue: units.nullable().default(null),
    /** An ERC-20 the transaction must move (its Transfer logs, from or to the sender), at least `minAmount` units. */
    transfer: z
      .object({
        token: evmAddress("Enter the token's address: 0x and 40 hexadecimal characters"),
        minAmount: units,
        symbol: z.string().trim().max(12).default(""),
        decimals: z.number().int().min(0).max(36).default(18),
      })
      .nullable()
      .default(null),
    actionUrl,
  }),
  event_emitted: z.object({
    chainId,
    contract: evmAddress("Enter the contract's address: 0x and 40 hexadecimal characters"),
    /** The event as Solidity declares it, with its argument names: `Swap(address indexed sender, …)`. */
    event: z.string().trim().min(3).max(500),
    /** The indexed `address` argument that must be the member's wallet. */
    memberArg: z.string().trim().min(1).max(64),
    /** A numeric argument the event must carry at least `min` of; null: none. */
    minArg: z
      .object({ name: z.string().trim().min(1).max(64), min: units })
      .nullable()
      .default(null),
    actionUrl,
  }),
  wallet_activity: z
    .object({
      chainId,
      /** At least this many transactions sent (the wallet's nonce). */
      minTxCount: z.number().int().min(1, "At least 1").max(1_000_000, "At most 1,000,000").nullable().default(null),
      /** The wallet's first activity at least this many days ago (needs a node that answers historical state). */
      minAgeDays: z.number().int().min(1, "At least 1 day").max(10_000, "At most 10,000 days").nullable().default(null),
    })
    .refine((c) => c.minTxCount !== null || c.minAgeDays !== null, {
      path: ["minTxCount"],
      message: "Ask for a number of transactions, an age, or both",
    }),
  wallet_connected: z.object({}),
  referral: z.object({ count: z.number().int().min(1, "At least 1").max(1000) }),
  x_follow: z.object({
    handle: z.string().regex(X_HANDLE, "Enter the X account: @name, name or its x.com/name link"),
    /** When X does not list the follow, the member may send a screenshot or link for review. */
    allowProof: z.boolean().default(false),
    recheckBeforeRewards,
  }),
  x_like: xPost,
  x_repost: xPost,
  x_post: z.object({ phrase }),
  youtube_subscribe: z.object({
    channelId: z.string().regex(YOUTUBE_CHANNEL_ID, "Enter the channel's id (UC…) or its youtube.com/channel/UC… link"),
    /** The channel's name as YouTube shows it, which members look for (tasks saved before it was asked have none). */
    channelName: channelName.optional(),
    recheckBeforeRewards,
  }),
  tiktok_post: z.object({ phrase }),
  instagram_post: z.object({ phrase }),
  tiktok_follow: z.object({ handle: z.string().regex(TIKTOK_HANDLE, "Enter the TikTok account: @name, name or its tiktok.com/@name link") }),
  instagram_follow: z.object({ handle: z.string().regex(INSTAGRAM_HANDLE, "Enter the Instagram account: @name, name or its instagram.com/name link") }),
  /** The project's server we ask (a signed POST) whether the member did it; whether we may reach it is checked at save (checkOutboundUrl). */
  api_check: z.object({
    url: z.url({ protocol: /^https?$/, error: "Enter your server's URL, starting with https://" }).max(2000, "Keep the URL under 2000 characters"),
    /** What members do before they press Check, in the project's words. */
    instructions: z.string().trim().max(1000, "Keep the instructions under 1000 characters").default(""),
  }),
  /** In the server: the member's own Discord token reads their membership (`guilds.members.read`). */
  discord_join: z.object({
    guildId: discordId("Enter the server's id: 17 to 20 digits (Server Settings › Widget, or Copy Server ID)"),
    guildName: communityName("Enter the server's name as members see it"),
    inviteUrl: discordInvite,
    recheckBeforeRewards,
  }),
  /** Holds a role in the server (read like `discord_join`, with the member's roles). */
  discord_role: z.object({
    guildId: discordId("Enter the server's id: 17 to 20 digits (Server Settings › Widget, or Copy Server ID)"),
    guildName: communityName("Enter the server's name as members see it"),
    roleId: discordId("Enter the role's id: 17 to 20 digits (Server Settings › Roles › Copy Role ID)"),
    roleName: communityName("Enter the role's name as members see it"),
    inviteUrl: discordInvite,
    recheckBeforeRewards,
  }),
  /** In the group or channel: read by the project's Telegram bot (`getChatMember`), which must be in it. */
  telegram_join: z.object({
    /** `@publicname` or the chat's numeric id (-100…); the project's bot must be an administrator there. */
    chatId: z.string().trim().regex(TELEGRAM_CHAT_ID, "Enter the group or channel: @name, its t.me/name link, or its id (-100…)"),
    chatTitle: communityName("Enter the group's or channel's name as members see it"),
    inviteUrl: telegramInvite,
    recheckBeforeRewards,
  }),
} satisfies Record<TaskType, z.ZodType>;

export type TaskConfig<T extends TaskType> = z.output<(typeof taskConfigSchemas)[T]>;

/** Which verification modes make sense for each type. */
export const VERIFICATION_MODES: Record<TaskType, readonly ("auto" | "review" | "none")[]> = {
  visit_link: ["none"],
  quiz: ["auto"],
  submit_text: ["review", "none"],
  submit_url: ["review", "none"],
  submit_image: ["review"],
  hold_token: ["auto"],
  nft_hold: ["auto"],
  contract_call: ["auto"],
  event_emitted: ["auto"],
  wallet_activity: ["auto"],
  wallet_connected: ["auto"],
  referral: ["auto"],
  // "auto" for a social task: checked through the provider's API with the member's account.
  x_follow: ["auto"],
  x_like: ["auto"],
  x_repost: ["auto"],
  x_post: ["auto"],
  youtube_subscribe: ["auto"],
  tiktok_post: ["auto"],
  instagram_post: ["auto"],
  // No API shows who follows an account on TikTok or Instagram: reviewed proof only.
  tiktok_follow: ["review"],
  instagram_follow: ["review"],
  api_check: ["auto"],
  discord_join: ["auto"],
  discord_role: ["auto"],
  telegram_join: ["auto"],
};

const optionalDate = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : new Date(v)))
  .refine((d) => d === null || !Number.isNaN(d.getTime()), "Enter a valid date and time")
  .refine((d) => d === null || isFormDate(d), FORM_DATE_RANGE_MESSAGE);

const optionalInt = (message: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : Number(v)))
    .refine((n) => n === null || (Number.isInteger(n) && n >= 1), message);

/** The task form's common fields; the type's own fields are parsed by `taskConfigSchemas`. */
export const taskFormSchema = z
  .object({
    title: z.string().trim().min(3, "A title has at least 3 characters").max(120, "Keep the title under 120 characters"),
    description: z.string().trim().max(2000).default(""),
    type: z.enum(TASK_TYPES, { error: "Choose a task type" }),
    xp: z.coerce.number({ error: "Enter the XP" }).int("XP is a whole number").min(1, "At least 1 XP").max(100_000, "At most 100,000 XP"),
    verification: z.enum(["auto", "review", "none"]),
    recurrence: z.enum(["once", "daily"]).default("once"),
    startsAt: optionalDate,
    endsAt: optionalDate,
    cap: optionalInt("The cap is a whole number of at least 1"),
    campaignId: z
      .string()
      .trim()
      .transform((v) => v || null),
    airdropId: z
      .string()
      .trim()
      .default("")
      .transform((v) => v || null),
  })
  .superRefine((v, ctx) => {
    if (!VERIFICATION_MODES[v.type].includes(v.verification)) {
      ctx.addIssue({
        code: "custom",
        path: ["verification"],
        message: `"${TASK_TYPE_LABELS[v.type]}" tasks are verified: ${VERIFICATION_MODES[v.type].join(" or ")}`,
      });
    }
    if (v.startsAt && v.endsAt && v.endsAt <= v.startsAt) {
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end comes after the start" });
    }
    // A task belongs to one container: its XP counts toward one campaign or one airdrop.
    if (v.campaignId && v.airdropId) {
      ctx.addIssue({ code: "custom", path: ["airdropId"], message: "A task counts toward one campaign or one airdrop: choose one of them" });
    }
  });

/** Reads the type's own fields from a submitted form (`config.*` names). */
export function parseTaskConfig(type: TaskType, form: FormData) {
  const get = (name: string) => String(form.get(`config.${name}`) ?? "").trim();
  const checked = (name: string) => form.get(`config.${name}`) === "on";
  /** The normalized value when it parses, else what was typed (refused by the schema with its message). */
  const normalized = (name: string, parse: (input: string) => string | null) => parse(get(name)) ?? get(name);
  const raw: Record<TaskType, () => unknown> = {
    visit_link: () => ({ url: get("url") }),
    quiz: () => ({
      question: get("question"),
      answers: get("answers")
        .split("\n")
        .map((a) => a.trim())
        .filter(Boolean),
      retryDelaySeconds: Number(get("retryDelaySeconds") || 0),
    }),
    submit_text: () => ({ prompt: get("prompt"), minLength: Number(get("minLength") || 1) }),
    submit_url: () => ({ prompt: get("prompt") }),
    submit_image: () => ({ prompt: get("prompt") }),
    hold_token: () => ({
      chainId: Number(get("chainId")),
      tokenAddress: get("tokenAddress") || null,
      minBalance: get("minBalance"),
      symbol: get("symbol"),
      decimals: Number(get("decimals") || 18),
      snapshotBlock: get("snapshotBlock") === "" ? null : Number(get("snapshotBlock")),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
    nft_hold: () => ({
      chainId: Number(get("chainId")),
      contract: get("contract"),
      standard: get("standard"),
      tokenIds: get("tokenIds")
        .split(/[\s,]+/)
        .filter(Boolean),
      minCount: Number(get("minCount") || 1),
      name: get("name"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
      actionUrl: get("actionUrl"),
    }),
    // The form reader (readTaskForm) turns typed signatures, ETH and token amounts into these fields first.
    contract_call: () => ({
      chainId: Number(get("chainId")),
      contract: get("contract"),
      functions: jsonOf(get("functions")),
      minValue: get("minValue") || null,
      transfer: get("transferToken")
        ? { token: get("transferToken"), minAmount: get("transferMinAmount"), symbol: get("transferSymbol"), decimals: Number(get("transferDecimals") || 18) }
        : null,
      actionUrl: get("actionUrl"),
    }),
    event_emitted: () => ({
      chainId: Number(get("chainId")),
      contract: get("contract"),
      event: get("event"),
      memberArg: get("memberArg"),
      minArg: get("minArgName") ? { name: get("minArgName"), min: get("minArgMin") } : null,
      actionUrl: get("actionUrl"),
    }),
    wallet_activity: () => ({
      chainId: Number(get("chainId")),
      minTxCount: get("minTxCount") === "" ? null : Number(get("minTxCount")),
      minAgeDays: get("minAgeDays") === "" ? null : Number(get("minAgeDays")),
    }),
    wallet_connected: () => ({}),
    referral: () => ({ count: Number(get("count")) }),
    x_follow: () => ({
      handle: normalized("handle", parseXHandleInput),
      allowProof: checked("allowProof"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
    x_like: () => ({ postUrl: normalized("postUrl", (input) => parseXPostInput(input)?.url ?? null) }),
    x_repost: () => ({ postUrl: normalized("postUrl", (input) => parseXPostInput(input)?.url ?? null) }),
    x_post: () => ({ phrase: get("phrase") }),
    youtube_subscribe: () => ({
      channelId: normalized("channelId", parseYoutubeChannelInput),
      channelName: get("channelName"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
    tiktok_post: () => ({ phrase: get("phrase") }),
    instagram_post: () => ({ phrase: get("phrase") }),
    tiktok_follow: () => ({ handle: normalized("handle", parseTiktokHandleInput) }),
    instagram_follow: () => ({ handle: normalized("handle", parseInstagramHandleInput) }),
    api_check: () => ({ url: get("url"), instructions: get("instructions") }),
    discord_join: () => ({
      guildId: get("guildId"),
      guildName: get("guildName"),
      inviteUrl: get("inviteUrl"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
    discord_role: () => ({
      guildId: get("guildId"),
      guildName: get("guildName"),
      roleId: get("roleId"),
      roleName: get("roleName"),
      inviteUrl: get("inviteUrl"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
    telegram_join: () => ({
      chatId: normalized("chatId", parseTelegramChatInput),
      chatTitle: get("chatTitle"),
      inviteUrl: get("inviteUrl"),
      recheckBeforeRewards: checked("recheckBeforeRewards"),
    }),
  };
  // The form asks for a YouTube channel's name, so members know the channel they look for.
  if (type === "youtube_subscribe") return taskConfigSchemas.youtube_subscribe.required({ channelName: true }).safeParse(raw[type]());
  return taskConfigSchemas[type].safeParse(raw[type]());
}

/** A field the form reader filled with JSON; what does not parse is left for the schema to refuse. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Quiz answers match ignoring case and spaces. */
export function normalizeAnswer(answer: string) {
  return answer.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

export const rejectSchema = z.object({ reason: z.string().trim().min(3, "Say why, so the member can do better").max(500) });
