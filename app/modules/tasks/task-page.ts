import type { SocialProvider } from "~/modules/social/providers";
import type { CampaignStatus } from "./campaign-status";

/** Where an on-chain task is done: its network's name and id, and its block explorer (null for a local chain). */
export type OnchainPlace = { network: string; chainId: number; explorer: string | null };

/** What a member is asked to do, without what only the team may see (a quiz's answers). */
export type TaskBrief =
  | { type: "visit_link"; url: string }
  | { type: "quiz"; question: string; retryDelaySeconds: number }
  | { type: "submit_text"; prompt: string; minLength: number }
  | { type: "submit_url"; prompt: string }
  | { type: "submit_image"; prompt: string }
  | ({ type: "hold_token"; tokenAddress: string | null; amount: string; symbol: string; snapshotBlock: number | null } & OnchainPlace)
  | ({
      type: "nft_hold";
      contract: string;
      standard: "erc721" | "erc1155";
      tokenIds: string[];
      minCount: number;
      name: string;
      actionUrl: string;
    } & OnchainPlace)
  | ({
      type: "contract_call";
      contract: string;
      functions: string[];
      /** The least native value sent, in the chain's coin (`0.01 ETH`); null: any. */
      minValue: string | null;
      /** The token the call must move, in whole tokens (`100 USDC`); null: none. */
      transfer: { token: string; amount: string; symbol: string } | null;
      actionUrl: string;
    } & OnchainPlace)
  | ({
      type: "event_emitted";
      contract: string;
      event: string;
      /** The event's name alone (`Swap`). */
      eventName: string;
      memberArg: string;
      minArg: { name: string; min: string } | null;
      actionUrl: string;
    } & OnchainPlace)
  | ({ type: "wallet_activity"; minTxCount: number | null; minAgeDays: number | null } & OnchainPlace)
  | { type: "wallet_connected" }
  | { type: "referral"; count: number; inviteLink: string | null }
  | { type: "x_follow"; handle: string; profileUrl: string; allowProof: boolean }
  | { type: "x_like" | "x_repost"; postUrl: string }
  | { type: "x_post" | "tiktok_post" | "instagram_post"; phrase: string }
  | { type: "youtube_subscribe"; channelId: string; channelName: string | null; channelUrl: string }
  | { type: "tiktok_follow" | "instagram_follow"; handle: string; profileUrl: string }
  /** The project's server confirms it; its URL stays the team's. */
  | { type: "api_check"; instructions: string }
  | { type: "discord_join"; guildName: string; inviteUrl: string }
  | { type: "discord_role"; guildName: string; roleName: string; inviteUrl: string }
  | { type: "telegram_join"; chatTitle: string; inviteUrl: string };

/** An on-chain task's side of the member's page: their linked wallets, and once approved what the chain showed. */
export type OnchainState = {
  linkedWallets: number;
  evidence: {
    /** A transaction (contract_call), an event in a transaction (event_emitted), or a read at a block (a holding, a wallet's history). */
    kind: "transaction" | "event" | "holding" | "history";
    network: string;
    explorer: string | null;
    blockNumber: string;
    txHash: string | null;
    wallet: string;
  } | null;
};

/** Why the member cannot act on the task right now, for the page to say before they try. */
export type TaskBlock =
  | { kind: "draft" }
  | { kind: "scheduled"; at: Date }
  | { kind: "ended" }
  | { kind: "campaign"; status: Exclude<CampaignStatus, "live"> }
  | { kind: "airdrop"; status: Exclude<CampaignStatus, "live"> }
  | { kind: "full" }
  /** A social task whose provider is not configured on this server. */
  | { kind: "not_set_up"; provider: SocialProvider }
  | { kind: "locked"; previous: { id: string; title: string } };
