/** Every kind of task: the values of `task.type` (db/schema/quests.ts), here so components can name them. */
export const TASK_TYPES = [
  "visit_link",
  "quiz",
  "submit_text",
  "submit_url",
  "submit_image",
  "hold_token",
  "wallet_connected",
  "referral",
  "x_follow",
  "x_like",
  "x_repost",
  "x_post",
  "youtube_subscribe",
  "tiktok_post",
  "instagram_post",
  "tiktok_follow",
  "instagram_follow",
] as const;
export type TaskType = (typeof TASK_TYPES)[number];
