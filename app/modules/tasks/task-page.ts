import type { SocialProvider } from "~/modules/social/providers";
import type { CampaignStatus } from "./campaign-status";

/** What a member is asked to do, without what only the team may see (a quiz's answers). */
export type TaskBrief =
  | { type: "visit_link"; url: string }
  | { type: "quiz"; question: string; retryDelaySeconds: number }
  | { type: "submit_text"; prompt: string; minLength: number }
  | { type: "submit_url"; prompt: string }
  | { type: "submit_image"; prompt: string }
  | { type: "hold_token"; network: string; tokenAddress: string | null; amount: string; symbol: string; snapshotBlock: number | null }
  | {
      type: "nft_hold";
      network: string;
      contract: string;
      standard: "erc721" | "erc1155";
      tokenIds: string[];
      minCount: number;
      name: string;
      actionUrl: string;
    }
  | { type: "contract_call"; network: string; contract: string; functions: string[]; actionUrl: string }
  | { type: "event_emitted"; network: string; contract: string; event: string; actionUrl: string }
  | { type: "wallet_activity"; network: string; minTxCount: number | null; minAgeDays: number | null }
  | { type: "wallet_connected" }
  | { type: "referral"; count: number; inviteLink: string | null }
  | { type: "x_follow"; handle: string; profileUrl: string; allowProof: boolean }
  | { type: "x_like" | "x_repost"; postUrl: string }
  | { type: "x_post" | "tiktok_post" | "instagram_post"; phrase: string }
  | { type: "youtube_subscribe"; channelId: string; channelName: string | null; channelUrl: string }
  | { type: "tiktok_follow" | "instagram_follow"; handle: string; profileUrl: string };

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
