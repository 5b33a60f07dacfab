import { count } from "drizzle-orm";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { user } from "#db/schema/auth";
import { category, project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { createProject } from "~/modules/projects/projects.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { drawChainsFrom } from "~/modules/rewards/draw-chains.server";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";
import type { RewardPoolInput } from "~/modules/rewards/reward.schema";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { saveCampaign, saveCrusade } from "~/modules/tasks/campaigns.server";
import { attemptTask, reviewCompletion, type AttemptInput } from "~/modules/tasks/completions.server";
import { saveTask, type TaskInput } from "~/modules/tasks/tasks.server";
import { canSeedOnchainQuests, seedOnchainQuests } from "./seed-onchain-quests.server";
import { canSeedOnChain, seedOnChain } from "./seed-tokens.server";
import { canSeedSybilFarm, seedSybilFarm } from "./seed-sybil.server";
import { seedApiCheck } from "./seed-api-check.server";
import { seedCommunity } from "./seed-community.server";
import { seedNotifications } from "./seed-notifications.server";
import { seedWebhooks } from "./seed-webhooks.server";

/**
 * A believable demo: projects in several categories, live, scheduled and ended campaigns,
 * crusades, tasks of every type, and members who completed them over the last weeks (so every
 * board and window has data), XP reward pools on live campaigns and paid ones on the ended
 * campaigns. With the local chain (`chains`), also what lives on it: the ended campaigns' raffles
 * drawn from its blocks, and for the first project a funded treasury, token rewards and airdrops
 * (seed-tokens.server.ts). Runs only on a database without projects.
 */

const DAY = 86_400_000;

const CATEGORIES = [
  { slug: "defi", name: "DeFi", description: "Lending, swaps, yield and the rest of on-chain finance." },
  { slug: "gaming", name: "Gaming", description: "Games whose items and progress live on-chain." },
  { slug: "nft", name: "NFT", description: "Collections, art and the communities around them." },
  { slug: "infrastructure", name: "Infrastructure", description: "Chains, bridges, wallets and developer tools." },
  { slug: "social", name: "Social", description: "Communities, creators and on-chain identity." },
];

const FIRST = [
  "Ada",
  "Satoshi",
  "Vitalik",
  "Mira",
  "Kenji",
  "Lena",
  "Omar",
  "Priya",
  "Jonas",
  "Zoe",
  "Ravi",
  "Ines",
  "Theo",
  "Nia",
  "Hugo",
  "Yuki",
  "Sami",
  "Elif",
  "Marco",
  "Ana",
];
const LAST = ["Byte", "Node", "Hash", "Block", "Chain", "Stake", "Mint", "Vault"];

type DemoTask = Omit<TaskInput, "campaignId" | "published" | "startsAt" | "endsAt" | "recurrence" | "cap" | "description"> &
  Partial<TaskInput> & { answer?: AttemptInput };

function taskSet(projectName: string, site: string): DemoTask[] {
  return [
    { title: `Visit the ${projectName} docs`, type: "visit_link", verification: "none", xp: 20, config: { url: `${site}/docs` }, answer: { kind: "visit" } },
    {
      title: `${projectName} basics quiz`,
      type: "quiz",
      verification: "auto",
      xp: 50,
      config: { question: `What does ${projectName} reward members with?`, answers: ["XP", "experience points"], retryDelaySeconds: 30 },
      answer: { kind: "answer", answer: "xp" },
    },
    {
      title: `Tell us why you joined ${projectName}`,
      type: "submit_text",
      verification: "review",
      xp: 80,
      config: { prompt: "A few sentences are enough.", minLength: 20 },
      answer: { kind: "text", text: "I joined for the community and the weekly quests, and stayed for the people." },
    },
    {
      title: `Share a thread about ${projectName}`,
      type: "submit_url",
      verification: "review",
      xp: 120,
      config: { prompt: "Link to your post." },
      answer: { kind: "url", url: "https://x.com/questline/status/1" },
    },
    { title: "Connect a wallet", type: "wallet_connected", verification: "auto", xp: 30, config: {} },
    { title: "Bring 3 friends", type: "referral", verification: "auto", xp: 200, config: { count: 3 } },
    {
      title: "Hold 0.01 BNB",
      type: "hold_token",
      verification: "auto",
      xp: 150,
      config: { chainId: 56, tokenAddress: null, minBalance: "10000000000000000", symbol: "BNB", decimals: 18 },
    },
    { title: "Post your best screenshot", type: "submit_image", verification: "review", xp: 60, config: { prompt: "A screenshot of your favourite moment." } },
    {
      title: "Daily check-in",
      type: "visit_link",
      verification: "none",
      xp: 10,
      recurrence: "daily",
      config: { url: `${site}/daily` },
      answer: { kind: "visit" },
    },
    // Social tasks: "not set up on this server" until a provider is configured (the local fakes
    // configure all four). Only the reviewed follows have demo completions: the others need a
    // member's connected account.
    {
      title: `Follow ${projectName} on X`,
      type: "x_follow",
      verification: "auto",
      xp: 40,
      config: { handle: "questline", allowProof: true, recheckBeforeRewards: true },
    },
    { title: "Like the launch post", type: "x_like", verification: "auto", xp: 20, config: { postUrl: "https://x.com/questline/status/1" } },
    { title: "Repost the launch post", type: "x_repost", verification: "auto", xp: 30, config: { postUrl: "https://x.com/questline/status/1" } },
    { title: `Post about ${projectName} on X`, type: "x_post", verification: "auto", xp: 60, config: { phrase: "#Questline" } },
    {
      title: "Subscribe on YouTube",
      type: "youtube_subscribe",
      verification: "auto",
      xp: 40,
      config: { channelId: "UCquestlineDemoChannel00", recheckBeforeRewards: true },
    },
    { title: "Post a TikTok", type: "tiktok_post", verification: "auto", xp: 80, config: { phrase: "#Questline" } },
    { title: "Post on Instagram", type: "instagram_post", verification: "auto", xp: 80, config: { phrase: "#Questline" } },
    {
      title: `Follow ${projectName} on TikTok`,
      type: "tiktok_follow",
      verification: "review",
      xp: 30,
      config: { handle: "questline" },
      answer: { kind: "proof", url: "https://www.tiktok.com/@questline", imageUrl: null },
    },
    {
      title: `Follow ${projectName} on Instagram`,
      type: "instagram_follow",
      verification: "review",
      xp: 30,
      config: { handle: "questline" },
      answer: { kind: "proof", url: "https://www.instagram.com/questline/", imageUrl: null },
    },
  ];
}

const pool = (input: Partial<RewardPoolInput> & Pick<RewardPoolInput, "distribution">): RewardPoolInput => ({
  kind: "xp",
  asset: null,
  winners: null,
  amount: null,
  rankAmounts: null,
  ...input,
});

/** Reward pools of each project's live season, by project. */
const LIVE_POOLS: RewardPoolInput[][] = [
  [pool({ distribution: "fcfs", winners: 50, amount: 100n }), pool({ distribution: "ranking", winners: 10, rankAmounts: [1000n, 500n, 250n, 100n] })],
  [pool({ distribution: "raffle", winners: 5, amount: 250n })],
  [pool({ distribution: "everyone", amount: 5000n })],
  [pool({ distribution: "ranking", winners: 3, rankAmounts: [600n, 400n, 200n] }), pool({ distribution: "raffle", winners: 2, amount: 500n })],
  [],
];

/** The ended launch week paid these, for every project; with a chain to draw from, a raffle too. */
const LAUNCH_POOLS = [
  pool({ distribution: "fcfs", winners: 10, amount: 150n }),
  pool({ distribution: "everyone", amount: 3000n }),
  pool({ distribution: "ranking", winners: 5, rankAmounts: [500n, 300n, 200n] }),
];
const LAUNCH_RAFFLE = pool({ distribution: "raffle", winners: 3, amount: 400n });

const PROJECTS = [
  {
    name: "Lumen Swap",
    slug: "lumen-swap",
    category: "defi",
    site: "https://lumenswap.example",
    description: "A decentralised exchange with concentrated liquidity and weekly community quests.",
  },
  {
    name: "Pixel Realms",
    slug: "pixel-realms",
    category: "gaming",
    site: "https://pixelrealms.example",
    description: "An on-chain strategy game: build, trade and defend your realm.",
  },
  {
    name: "Astra Bridge",
    slug: "astra-bridge",
    category: "infrastructure",
    site: "https://astrabridge.example",
    description: "Fast, audited bridging between BNB Smart Chain and Ethereum.",
  },
  {
    name: "Muse Collective",
    slug: "muse-collective",
    category: "nft",
    site: "https://muse.example",
    description: "A community of artists minting one piece a week together.",
  },
  {
    name: "Circle Social",
    slug: "circle-social",
    category: "social",
    site: "https://circle.example",
    description: "On-chain profiles and reputation for community builders.",
  },
];

export async function hasProjects(db: Db) {
  const [row] = await db.select({ n: count() }).from(project);
  return (row?.n ?? 0) > 0;
}

export async function seedDemo({
  db,
  now = new Date(),
  chains = null,
  reach = null,
  community = null,
}: {
  db: Db;
  now?: Date;
  chains?: ChainRegistry | null;
  /**
   * What the demo's api_check task and webhook endpoint need: the key secrets are kept under, the
   * app's URL (their stand-in receivers are this app's /dev routes) and whether it is served
   * publicly (then neither is seeded: the receivers exist only in the local trial).
   */
  reach?: { tokenKey: Buffer; appUrl: string; isPublic: boolean } | null;
  /** Discord and Telegram as configured: the demo's community campaign, with Lumen Swap's bots where the local fakes answer. */
  community?: { social: SocialConfig; isPublic: boolean } | null;
}) {
  if (await hasProjects(db)) return { seeded: false as const };
  /** The local chain, when the demo can use it. */
  const onChain = chains && canSeedOnChain(chains) ? chains : null;

  const categories = await db.insert(category).values(CATEGORIES).returning();
  const members = Array.from({ length: 36 }, (_, i) => ({
    id: `demo-member-${String(i + 1).padStart(2, "0")}`,
    name: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`,
    email: `member${i + 1}@demo.questline.invalid`,
    emailVerified: true,
    createdAt: new Date(now.getTime() - (60 - i) * DAY),
  }));
  await db.insert(user).values(members);
  let random = 7;
  const next = () => (random = (random * 48271) % 2147483647) / 2147483647;

  for (const [p, spec] of PROJECTS.entries()) {
    const owner = members[p]!.id;
    const created = await createProject({
      db,
      userId: owner,
      input: {
        name: spec.name,
        slug: spec.slug,
        description: spec.description,
        categoryId: categories.find((c) => c.slug === spec.category)!.id,
        website: spec.site,
        xUrl: `https://x.com/${spec.slug.replace(/-/g, "")}`,
        discordUrl: `https://discord.gg/${spec.slug}`,
        telegramUrl: null,
      },
    });
    if (!created.ok) throw new Error(`demo project ${spec.slug}: ${failureMessage(created)}`);
    const projectId = created.project.id;

    const live = await saveCampaign({
      db,
      projectId,
      input: {
        name: `${spec.name} Season ${p + 2}`,
        slug: `season-${p + 2}`,
        description: `Complete ${spec.name}'s quests this season and climb the board.`,
        startsAt: new Date(now.getTime() - 20 * DAY),
        endsAt: new Date(now.getTime() + 10 * DAY),
        published: true,
      },
      now: new Date(now.getTime() - 21 * DAY),
    });
    const ended = await saveCampaign({
      db,
      projectId,
      input: {
        name: `${spec.name} Launch Week`,
        slug: "launch-week",
        description: "Where it all started.",
        startsAt: new Date(now.getTime() - 80 * DAY),
        endsAt: new Date(now.getTime() - 73 * DAY),
        published: true,
      },
      now: new Date(now.getTime() - 81 * DAY),
    });
    await saveCampaign({
      db,
      projectId,
      input: {
        name: `${spec.name} Summit`,
        slug: "summit",
        description: "Coming soon: quests around our first summit.",
        startsAt: new Date(now.getTime() + 14 * DAY),
        endsAt: new Date(now.getTime() + 21 * DAY),
        published: true,
      },
    });
    if (!live.ok || !ended.ok) throw new Error("demo campaigns");

    const taskIds: { id: string; spec: DemoTask }[] = [];
    for (const [t, demo] of taskSet(spec.name, spec.site).entries()) {
      const { answer: _answer, ...fields } = demo;
      const saved = await saveTask({
        db,
        projectId,
        input: {
          description: "",
          recurrence: "once",
          startsAt: null,
          endsAt: null,
          cap: t === 3 ? 500 : null,
          campaignId: t < 6 ? live.value.id : null,
          published: true,
          ...fields,
        },
        now: new Date(now.getTime() - 25 * DAY),
      });
      if (!saved.ok) throw new Error(`demo task: ${failureMessage(saved)}`);
      taskIds.push({ id: saved.task.id, spec: demo });
    }
    const crusadeTasks = taskIds.slice(0, 3).map((t) => t.id);
    await saveCrusade({
      db,
      projectId,
      input: {
        name: `${spec.name} Path`,
        slug: "path",
        description: "Three steps, in order, and a bonus at the end.",
        bonusXp: 100,
        published: true,
        taskIds: crusadeTasks,
      },
    });

    for (const [i, input] of (LIVE_POOLS[p] ?? []).entries()) {
      // Live raffles are drawn from the local chain's blocks when their season ends.
      const created = await createRewardPool({
        db,
        campaignId: live.value.id,
        actorId: owner,
        input,
        raffleChainId: LOCAL_CHAIN_ID,
        now: new Date(now.getTime() - 19 * DAY + i * 60_000),
      });
      if (!created.ok) throw new Error(`demo reward: ${failureMessage(created)}`);
    }

    // Launch week: two tasks, done by most members during that week, and rewards paid at its end.
    const launchStart = ended.value.startsAt.getTime();
    const launchTasks: { id: string; answer: AttemptInput }[] = [];
    for (const demo of [
      {
        title: `Say hello to ${spec.name}`,
        type: "visit_link",
        verification: "none",
        xp: 25,
        config: { url: `${spec.site}/hello` },
        answer: { kind: "visit" },
      },
      {
        title: "Launch week quiz",
        type: "quiz",
        verification: "auto",
        xp: 40,
        config: { question: `Which week did ${spec.name} launch in?`, answers: ["launch week"], retryDelaySeconds: 0 },
        answer: { kind: "answer", answer: "Launch week" },
      },
    ] as const) {
      const { answer, ...fields } = demo;
      const saved = await saveTask({
        db,
        projectId,
        input: { description: "", recurrence: "once", startsAt: null, endsAt: null, cap: null, campaignId: ended.value.id, published: true, ...fields },
        now: new Date(launchStart - DAY),
      });
      if (!saved.ok) throw new Error(`demo task: ${failureMessage(saved)}`);
      launchTasks.push({ id: saved.task.id, answer });
    }
    for (const [i, input] of (onChain ? [...LAUNCH_POOLS, LAUNCH_RAFFLE] : LAUNCH_POOLS).entries()) {
      const created = await createRewardPool({
        db,
        campaignId: ended.value.id,
        actorId: owner,
        input,
        raffleChainId: LOCAL_CHAIN_ID,
        now: new Date(launchStart - DAY + i * 60_000),
      });
      if (!created.ok) throw new Error(`demo reward: ${failureMessage(created)}`);
    }
    for (const member of members) {
      if (next() < 0.3) continue;
      for (const { id, answer } of launchTasks) {
        if (next() < 0.15) continue;
        const at = new Date(launchStart + Math.floor(next() * 6 * DAY) + 3_600_000);
        await attemptTask({ db, taskId: id, userId: member.id, input: answer, now: at });
      }
    }

    // Members do the tasks over the last four weeks; the team reviews most submissions.
    for (const [m, member] of members.entries()) {
      if (next() < 0.35) continue;
      for (const { id, spec: demo } of taskIds) {
        if (!demo.answer || next() < 0.3) continue;
        const at = new Date(now.getTime() - Math.floor(next() * 28 * DAY) - 3_600_000);
        const result = await attemptTask({ db, taskId: id, userId: member.id, input: answerOf(demo.answer, member.name, m), now: at });
        if (result.ok && result.status === "pending" && next() < 0.7) {
          const decision = next() < 0.85 ? "approved" : "rejected";
          await reviewCompletion({
            db,
            completionId: result.completionId,
            reviewerId: owner,
            decision,
            reason: decision === "rejected" ? "The link does not show the post. Please share a public one." : undefined,
            now: new Date(at.getTime() + 2 * 3_600_000),
          });
        }
      }
    }
    if (onChain && p === 0) {
      await seedOnChain({
        db,
        chains: onChain,
        project: { id: projectId, name: spec.name, site: spec.site, ownerId: owner, liveCampaignId: live.value.id },
        members,
        now,
        next,
      });
      if (canSeedOnchainQuests(onChain)) await seedOnchainQuests({ db, chains: onChain, projectId, memberIds: members.map((m) => m.id), now });
      // A bot farm among the live season's members, for the trust screens (seed-sybil.server.ts).
      if (canSeedSybilFarm(onChain))
        await seedSybilFarm({
          db,
          chains: onChain,
          seasonTasks: taskIds.slice(0, 6),
          firstMemberNumber: members.length + 1,
          project: { id: projectId, ownerId: owner },
          now,
        });
    }
    // A task Lumen Swap's own server confirms (the local trial's /dev/api-check), done by members through the real check.
    if (p === 0 && reach && !reach.isPublic)
      await seedApiCheck({ db, tokenKey: reach.tokenKey, appUrl: reach.appUrl, projectId, memberIds: members.map((m) => m.id), now });
    // Lumen Swap's Discord server and Telegram group: three tasks, and a role for completing them.
    if (p === 0 && community) await seedCommunity({ db, ...community, projectId, ownerId: owner, now });
  }
  // Lumen Swap's webhook endpoint (the local trial's receiver, /dev/webhooks) is added before the
  // launch weeks pay, so their payouts and draws are among its first deliveries when the worker starts.
  if (reach) await seedWebhooks({ db, ...reach });
  // The launch weeks' rewards, paid a minute after they ended, as the worker would have: a raffle
  // takes two runs (its entrants frozen, then drawn from a later block of the local chain).
  const paidAt = new Date(now.getTime() - 73 * DAY + 60_000);
  const drawChains = onChain ? drawChainsFrom(onChain) : new Map();
  const fail = (poolId: string, error: unknown) => {
    throw new Error(`demo reward ${poolId} was not paid`, { cause: error });
  };
  for (let run = 0; run < (onChain ? 2 : 1); run++) await distributeEndedCampaigns({ db, chains: drawChains, now: paidAt, onPoolError: fail });
  // The members' inbox, from what the demo did (reviews, rewards, draws, a followed project's campaign).
  await seedNotifications({ db, now, chains: onChain ?? undefined });
  return { seeded: true as const, projects: PROJECTS.length, members: members.length, onChain: onChain !== null };
}

/** Why members say they joined, in their own words: no two demo members hand in the same text or link. */
const REASONS_TO_JOIN = [
  "I joined for the community and the weekly quests, and stayed for the people.",
  "A friend showed me the leaderboard and I wanted to see how far I could climb.",
  "I have used the app for months and wanted to learn what the team is building next.",
  "The docs answered every question I had, so I signed up to follow the releases.",
  "I came for the airdrop talk and stayed because the tasks taught me something.",
  "Our local meetup does these quests together on Thursday evenings.",
];
/** How they sign off: with the reasons above, a different pair for each of the first 42 members. */
const SIGN_OFFS = ["here since the beta", "member since the first season", "long-time LP", "new here", "cheers", "see you on the board", "gm"];

/** A written answer or link as this member would hand it in (quiz answers and visits stay as they are). */
function answerOf(answer: AttemptInput, name: string, index: number): AttemptInput {
  const first = name.split(" ")[0] ?? name;
  if (answer.kind === "text")
    return { kind: "text", text: `${REASONS_TO_JOIN[index % REASONS_TO_JOIN.length]} ${first}, ${SIGN_OFFS[index % SIGN_OFFS.length]}.` };
  if (answer.kind === "url") return { kind: "url", url: `https://x.com/${first.toLowerCase()}${index + 1}/status/${180_000 + index * 7}` };
  return answer;
}
