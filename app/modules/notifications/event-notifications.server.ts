import { sql, type SQL } from "drizzle-orm";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { EVENT_DATA, type EventData, type EventType } from "~/modules/events/event-types";
import { rowsOf, type Db } from "~/lib/db.server";
import { assetAmount, assetSchema, QUEST_DECIMALS } from "~/modules/ledger/assets";
import { rewardDecimals } from "~/modules/projects/set-reward-asset.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import type { NotificationKind } from "./notification-kinds";

/**
 * What one event tells whom: the notification's kind and a statement selecting its recipients,
 * one row per member with `user_id, title, body, link`. Recipients come from the rows the event
 * is about (the completion's member, the grant's winner, the pool's entrants, the airdrop's
 * allocations, the deposit's or withdrawal's owner, the invite's addressee, the project's followers
 * or team), never from the event's word alone: a notification never reaches another member.
 */
export type Fanout = { kind: NotificationKind; recipients: SQL };

type Words = { title: string; body: string; link: string | null };
type Options = { db: Db; chains?: Pick<ChainRegistry, "get"> };
type Handler<T extends EventType> = (event: { key: string; projectId: string | null; data: EventData<T> }, options: Options) => Promise<Fanout | null>;

/** The same words for every recipient of `from` (a statement with the recipients' `user_id`). */
const sameWords = (words: Words, from: SQL): SQL =>
  sql`select distinct r.user_id, ${words.title}::text as title, ${words.body}::text as body, ${words.link}::text as link from (${from}) r`;

/** Where a project's webhook endpoints are managed (the webhooks part's page; the team's notice links there). */
export const webhooksLink = (projectSlug: string) => `/projects/${encodeURIComponent(projectSlug)}/webhooks`;

const q = (text: string) => `“${text}”`;

function amountWords({ amount, asset, kind }: { amount: string; asset: string | null; kind?: "xp" | "token" }, chains?: Options["chains"]) {
  if (kind === "xp" || !asset) return `${BigInt(amount).toLocaleString("en")} XP`;
  const parsed = assetSchema.safeParse(asset);
  if (!parsed.success) return `${amount} ${asset}`;
  const decimals = (chains && rewardDecimals(chains, asset)) ?? QUEST_DECIMALS;
  return assetAmount(BigInt(amount), parsed.data, decimals);
}

const chainWords = (chainId: number) => CHAIN_NAMES[chainId] ?? `chain ${chainId}`;

export const dateWords = (iso: string) =>
  new Date(iso).toLocaleString("en", { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false }) +
  " UTC";

async function one<T>(db: Db, query: SQL): Promise<T | null> {
  return (rowsOf(await db.execute(query))[0] as T | undefined) ?? null;
}

const campaignOf = (db: Db, campaignId: string) =>
  one<{ project_slug: string; project_name: string; slug: string; name: string }>(
    db,
    sql`select p.slug as project_slug, p.name as project_name, c.slug, c.name from campaign c join project p on p.id = c.project_id where c.id = ${campaignId}`,
  );

const airdropOf = (db: Db, airdropId: string) =>
  one<{ project_slug: string; slug: string }>(
    db,
    sql`select p.slug as project_slug, a.slug from airdrop a join project p on p.id = a.project_id where a.id = ${airdropId}`,
  );

const campaignLink = (c: { project_slug: string; slug: string }) => `/projects/${encodeURIComponent(c.project_slug)}/campaigns/${encodeURIComponent(c.slug)}`;
const airdropLink = (a: { project_slug: string; slug: string }) => `/projects/${encodeURIComponent(a.project_slug)}/airdrops/${encodeURIComponent(a.slug)}`;
const verifyLink = (poolId: string) => `/rewards/raffles/${encodeURIComponent(poolId)}`;
const balanceLink = (chainId: number) => `/balance?chain=${chainId}`;

const completionDecided =
  (approved: boolean): Handler<"completion.approved" | "completion.rejected"> =>
  async ({ data }) => {
    // A check's own answer is shown where the member acted; only a person's decision is news.
    if (!data.reviewed) return null;
    const words: Words = approved
      ? {
          title: `Approved: ${data.taskTitle}`,
          body: `Your completion of ${q(data.taskTitle)} was approved.`,
          link: `/tasks/${encodeURIComponent(data.taskId)}`,
        }
      : {
          title: `Not approved: ${data.taskTitle}`,
          body: `Your completion of ${q(data.taskTitle)} was rejected${data.reason ? `: ${data.reason}` : "."}`,
          link: `/tasks/${encodeURIComponent(data.taskId)}`,
        };
    return { kind: "review", recipients: sameWords(words, sql`select user_id from completion where id = ${data.completionId} and user_id = ${data.userId}`) };
  };

const HANDLERS: { [T in EventType]?: Handler<T> } = {
  "completion.approved": completionDecided(true),
  "completion.rejected": completionDecided(false),

  "reward.paid": async ({ data }, { chains }) => {
    const amount = amountWords(data, chains);
    const raffle = data.distribution === "raffle";
    const why =
      data.distribution === "raffle"
        ? `You were drawn in the ${q(data.campaignTitle)} raffle`
        : data.distribution === "ranking" && data.rank
          ? `You finished #${data.rank} in ${q(data.campaignTitle)}`
          : data.distribution === "fcfs"
            ? `You were among the first to finish ${q(data.campaignTitle)}`
            : `You finished ${q(data.campaignTitle)}`;
    const words: Words = {
      title: `You won ${amount}`,
      body: `${why}: ${data.kind === "xp" ? `${amount} added to your XP` : `${amount} added to your balance`}.${raffle ? " Check the draw yourself on its proof page." : ""}`,
      link: raffle ? verifyLink(data.poolId) : "/rewards",
    };
    return { kind: "reward", recipients: sameWords(words, sql`select user_id from reward_grant where pool_id = ${data.poolId} and user_id = ${data.userId}`) };
  },

  "raffle.drawn": async ({ data }) => {
    const link = verifyLink(data.poolId);
    const among = `${data.winners === 1 ? "1 winner" : `${data.winners} winners`} among ${data.entrants} ${data.entrants === 1 ? "entrant" : "entrants"}`;
    const won = { title: `You won the ${data.campaignTitle} raffle`, body: `The draw is done: ${among}, and you are one of them. Check the draw yourself.` };
    const drawn = { title: `The ${data.campaignTitle} raffle was drawn`, body: `The draw is done: ${among}. See who won and check the draw yourself.` };
    // Every entrant, in one statement whatever their number; a winner is one with a grant of the
    // pool (and counts as an entrant: a raffle drawn before entrants were frozen lists none).
    return {
      kind: "raffle",
      recipients: sql`select e.user_id,
          case when g.user_id is null then ${drawn.title}::text else ${won.title}::text end as title,
          case when g.user_id is null then ${drawn.body}::text else ${won.body}::text end as body,
          ${link}::text as link
        from (select user_id from raffle_entrant where pool_id = ${data.poolId} union select user_id from reward_grant where pool_id = ${data.poolId}) e
        left join reward_grant g on g.pool_id = ${data.poolId} and g.user_id = e.user_id`,
    };
  },

  "airdrop.claimable": async ({ data }, { db }) => {
    const found = await airdropOf(db, data.airdropId);
    const words: Words = {
      title: `Your ${data.title} share is ready to claim`,
      body: `Claim your share of ${q(data.title)} on chain${data.claimDeadline ? ` before ${dateWords(data.claimDeadline)}` : ""}.`,
      link: found ? airdropLink(found) : "/airdrop",
    };
    return {
      kind: "airdrop_claimable",
      recipients: sameWords(words, sql`select user_id from airdrop_allocation where airdrop_id = ${data.airdropId} and amount > 0 and leaf is not null`),
    };
  },

  "airdrop.closing": async ({ data }, { db }) => {
    const found = await airdropOf(db, data.airdropId);
    const words: Words = {
      title: `Claims for ${data.title} close soon`,
      body: `You have not claimed your share of ${q(data.title)} yet. Claims close on ${dateWords(data.claimDeadline)}.`,
      link: found ? airdropLink(found) : "/airdrop",
    };
    // Only members who have not claimed: a claim is read from the chain by its leaf.
    const unclaimed = sql`select a.user_id from airdrop_allocation a
      where a.airdrop_id = ${data.airdropId} and a.amount > 0 and a.leaf is not null
        and not exists (select 1 from airdrop_claim c where c.airdrop_id = a.airdrop_id and c.leaf = a.leaf)`;
    return { kind: "airdrop_closing", recipients: sameWords(words, unclaimed) };
  },

  "deposit.credited": async ({ data }, { chains }) => {
    const amount = amountWords({ amount: data.amount, asset: data.asset }, chains);
    const words: Words = {
      title: `Deposit credited: ${amount}`,
      body: `Your deposit of ${amount} on ${chainWords(data.chainId)} is in your balance.`,
      link: balanceLink(data.chainId),
    };
    return { kind: "deposit", recipients: sameWords(words, sql`select user_id from deposit where id = ${data.depositId} and user_id = ${data.userId}`) };
  },

  "withdrawal.confirmed": async ({ data }, { chains }) => {
    const amount = amountWords({ amount: data.amount, asset: data.asset }, chains);
    const words: Words = {
      title: `Withdrawal confirmed: ${amount}`,
      body: `Your withdrawal of ${amount} reached your wallet on ${chainWords(data.chainId)}.`,
      link: balanceLink(data.chainId),
    };
    return {
      kind: "withdrawal",
      recipients: sameWords(words, sql`select user_id from withdrawal where id = ${data.withdrawalId} and user_id = ${data.userId}`),
    };
  },

  "withdrawal.failed": async ({ data }, { chains }) => {
    const amount = amountWords({ amount: data.amount, asset: data.asset }, chains);
    // The Balance page lists a failed withdrawal under "Under way" with its Retry and Cancel buttons.
    const words: Words = {
      title: `Withdrawal failed: ${amount}`,
      body: `Your withdrawal of ${amount} on ${chainWords(data.chainId)} failed: ${data.reason} Retry it or cancel it on your Balance page.`,
      link: balanceLink(data.chainId),
    };
    return {
      kind: "withdrawal",
      recipients: sameWords(words, sql`select user_id from withdrawal where id = ${data.withdrawalId} and user_id = ${data.userId}`),
    };
  },

  "invitation.received": async ({ data }) => {
    const role = data.role === "admin" ? "an admin" : data.role === "owner" ? "an owner" : "a reviewer";
    const words: Words = {
      title: `${data.invitedBy} invited you to ${data.projectName}`,
      body: `You are invited to join ${data.projectName}'s team as ${role}. Accept or decline it on your dashboard.`,
      link: "/dashboard",
    };
    // The invite must be addressed to the member: their e-mail or one of their linked wallets.
    const addressee = sql`select u.id as user_id from project_invite i join "user" u on u.id = ${data.userId}
      where i.id = ${data.inviteId}
        and (i.email = lower(u.email) or i.wallet_address in (select lower(w.address) from wallet_address w where w.user_id = u.id))`;
    return { kind: "invitation", recipients: sameWords(words, addressee) };
  },

  "campaign.published": async ({ data, projectId }, { db }) => {
    const found = await campaignOf(db, data.campaignId);
    if (!found || !projectId) return null;
    const words: Words = {
      title: `New campaign from ${found.project_name}: ${data.title}`,
      body: data.startsAt
        ? `${found.project_name} published ${q(data.title)}. It starts on ${dateWords(data.startsAt)}.`
        : `${found.project_name} published ${q(data.title)}.`,
      link: campaignLink(found),
    };
    return { kind: "campaign", recipients: sameWords(words, sql`select user_id from project_follow where project_id = ${projectId}`) };
  },

  "webhook.disabled": async ({ data, projectId }, { db }) => {
    if (!projectId) return null;
    const found = await one<{ slug: string; name: string }>(db, sql`select slug, name from project where id = ${projectId}`);
    if (!found) return null;
    const words: Words = {
      title: `A webhook endpoint of ${found.name} was turned off`,
      body: `${data.url} was turned off after failing for too long: ${data.reason} Fix it, then turn it back on from the project's Webhooks page.`,
      link: webhooksLink(found.slug),
    };
    return {
      kind: "webhook",
      recipients: sameWords(words, sql`select user_id from project_member where project_id = ${projectId} and role in ('owner', 'admin')`),
    };
  },
};

/** The event's fan-out, or null when it tells nobody (a check's own answer, a type that notifies no one, data of another shape). */
export async function fanoutOf(event: { type: string; key: string; projectId: string | null; data: unknown }, options: Options): Promise<Fanout | null> {
  const type = event.type as EventType;
  const handler = HANDLERS[type] as Handler<EventType> | undefined;
  const schema = EVENT_DATA[type];
  if (!handler || !schema) return null;
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) return null;
  return handler({ key: event.key, projectId: event.projectId, data: parsed.data }, options);
}
